import { Link, NavLink, Outlet } from "react-router";
import { LogoMark } from "~/components/Logo";
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
        <nav aria-label="Admin">
          <ul className="flex gap-1 overflow-x-auto px-2 pb-3 md:flex-col">
            {SECTIONS.map((section) => (
              <li key={section.to}>
                <NavLink
                  to={section.to}
                  end={section.end}
                  className={({ isActive }) =>
                    `block rounded-md px-3 py-2 text-sm ${isActive ? "bg-slate-800 text-green-400" : "text-slate-300 hover:bg-slate-800"}`
                  }
                >
                  {section.label}
                </NavLink>
              </li>
            ))}
            <li>
              <Link
                to="/"
                className="block rounded-md px-3 py-2 text-sm text-slate-400 hover:bg-slate-800"
              >
                Back to site
              </Link>
            </li>
          </ul>
        </nav>
      </aside>
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
    </div>
  );
}
