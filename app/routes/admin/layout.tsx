import { Link, Outlet } from "react-router";
import { stepUpPending } from "~/.server/account/session-origin.server";
import { requireAdmin } from "~/.server/auth/session";
import { LogoMark } from "~/components/Logo";
import { SectionNav } from "~/components/SectionNav";
import { site } from "~/config/site";
import type { Route } from "./+types/layout";

const SECTIONS = [
  { to: "/admin", label: "Overview", end: true },
  { to: "/admin/analytics", label: "Analytics", end: false },
  { to: "/admin/support", label: "Support", end: false },
  { to: "/admin/users", label: "Users", end: false },
  { to: "/admin/subscriptions", label: "Subscriptions", end: false },
  { to: "/admin/teams", label: "Teams", end: false },
  { to: "/admin/invoices", label: "Invoices", end: false },
  { to: "/admin/disputes", label: "Disputes", end: false },
  { to: "/admin/coupons", label: "Coupons", end: false },
  { to: "/admin/retention", label: "Cancellations", end: false },
  { to: "/admin/releases", label: "Releases", end: false },
  { to: "/admin/jobs", label: "Jobs", end: false },
  { to: "/admin/backups", label: "Backups", end: false },
  { to: "/admin-fix-subscription", label: "Fix subscription", end: false },
  { to: "/admin/settings", label: "Settings", end: false },
] as const;

/** Whether this browser (opened from the desktop app) must confirm it's you before any change. */
export async function loader({ context }: Route.LoaderArgs) {
  const session = requireAdmin(context);
  return { confirmFirst: await stepUpPending(session.id) };
}

/** The admin area's own chrome: the site navbar never shows under /admin. */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <aside className="border-b border-slate-800 bg-slate-900 md:w-60 md:border-b-0 md:border-r">
        <div className="flex items-center gap-2 px-4 py-4 font-semibold text-white">
          <LogoMark className="h-6 w-6" />
          <span>{site.product.name} admin</span>
        </div>
        <SectionNav
          label="Admin"
          sections={SECTIONS}
          extra={{ to: "/", label: "Back to site" }}
          className="px-2 pb-3"
        />
      </aside>
      {/* min-w-0: a wide table scrolls inside the page, it does not widen the page. */}
      <main id="main" tabIndex={-1} className="min-w-0 flex-1 outline-none">
        {loaderData.confirmFirst ? (
          <p
            role="status"
            className="border-b border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm text-amber-100"
          >
            This browser was signed in from the desktop app: you can look around, but changes here
            wait until you{" "}
            <Link to="/account/security" className="font-medium text-white underline">
              confirm it&apos;s you on the Security page
            </Link>
            .
          </p>
        ) : null}
        <Outlet />
      </main>
    </div>
  );
}
