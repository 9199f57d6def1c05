import { AdminSection, AdminTable, TD } from "~/components/admin/AdminUi";
import { formatBytes } from "~/lib/format";

export interface UpdatePathRow {
  updater: string;
  full: { fileName: string; size: number } | null;
  smaller: { from: string; fileName: string; size: number }[];
  note: string;
}

function share(part: number, whole: number): string {
  return whole > 0 ? ` (${Math.max(1, Math.round((part / whole) * 100))} % of the whole)` : "";
}

/** What each updater's apps download to reach this release (app/.server/releases/update-paths.ts). */
export function UpdatePaths({ rows }: { rows: UpdatePathRow[] }) {
  const served = rows.filter((row) => row.full !== null);
  const none = rows.filter((row) => row.full === null).map((row) => row.updater);
  return (
    <AdminSection
      id="update-paths"
      title="What apps download"
      lead="For each updater, from the files of this release."
    >
      {served.length === 0 ? (
        <p className="text-sm text-slate-300">No updater can install this release yet.</p>
      ) : (
        <AdminTable
          caption="What each updater downloads"
          columns={["Updater", "Download", "Notes"]}
        >
          {served.map((row) => (
            <tr key={row.updater} className="border-b border-slate-800/60">
              <td className={TD}>{row.updater}</td>
              <td className={TD}>
                <span className="font-mono text-xs break-all">{row.full?.fileName}</span>{" "}
                {formatBytes(row.full?.size ?? 0)}
                {row.smaller.length > 0 ? (
                  <ul className="mt-1 list-disc pl-5 text-xs text-slate-300">
                    {row.smaller.map((delta) => (
                      <li key={delta.fileName}>
                        {`From ${delta.from}: ${formatBytes(delta.size)}${share(delta.size, row.full?.size ?? 0)}`}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </td>
              <td className={`${TD} text-sm text-slate-300`}>{row.note}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      {none.length > 0 ? (
        <p className="mt-3 text-sm text-slate-400">{`Nothing for: ${none.join(", ")}.`}</p>
      ) : null}
    </AdminSection>
  );
}
