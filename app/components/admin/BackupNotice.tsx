import { Link } from "react-router";
import type { BackupHealth } from "~/lib/backups";

/** The dashboard's line about backups: when the last one succeeded, or what is wrong. */
export function BackupNotice({ health }: { health: BackupHealth }) {
  return (
    <p
      role={health.ok ? undefined : "alert"}
      className={`mb-6 rounded-lg border px-4 py-3 text-sm ${
        health.ok
          ? "border-slate-800 bg-slate-900 text-slate-300"
          : "border-amber-500/40 bg-amber-500/10 text-amber-100"
      }`}
    >
      {health.message}{" "}
      <Link to="/admin/backups" className="font-medium text-white underline">
        Backups
      </Link>
    </p>
  );
}
