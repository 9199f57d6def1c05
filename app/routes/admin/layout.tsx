import { Outlet } from "react-router";
import { LogoMark } from "~/components/Logo";
import { SectionNav } from "~/components/SectionNav";
import { site } from "~/config/site";

const SECTIONS = [
  { to: "/admin", label: "Overview", end: true },
  { to: "/admin/users", label: "Users", end: false },
  { to: "/admin/subscriptions", label: "Subscriptions", end: false },
  { to: "/admin/invoices", label: "Invoices", end: false },
  { to: "/admin/releases", label: "Releases", end: false },
  { to: "/admin-fix-subscription", label: "Fix subscription", end: false },
] as const;

/** The admin area's own chrome: the site navbar never shows under /admin. */
export default function AdminLayout() {
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
        <Outlet />
      </main>
    </div>
  );
}
