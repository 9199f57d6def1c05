import { NavLink, Outlet } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { billingBanner } from "~/.server/billing/overview.server";
import { BillingBanner } from "~/components/billing/BillingBanner";
import { SignOutButton } from "~/components/SignOutButton";
import type { Route } from "./+types/layout";

const SECTIONS = [
  { to: "/account", label: "Overview", end: true },
  { to: "/account/usage", label: "Usage", end: false },
  { to: "/account/profile", label: "Profile", end: false },
  { to: "/account/security", label: "Security", end: false },
  { to: "/account/subscription", label: "Subscription", end: false },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  // Failed payments show on every account page, not only where billing is.
  return { user, banner: await billingBanner(user.id) };
}

export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 sm:px-6 md:flex-row">
      <nav aria-label="Account" className="md:w-48">
        <ul className="flex gap-2 overflow-x-auto md:flex-col">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) =>
                  `block rounded-md px-3 py-2 text-sm ${isActive ? "bg-slate-800 text-green-400" : "text-slate-300 hover:bg-slate-900"}`
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="mt-6 hidden md:block">
          <SignOutButton />
        </div>
      </nav>
      <div className="flex-1 space-y-6">
        <BillingBanner banner={loaderData.banner} />
        <Outlet />
      </div>
    </div>
  );
}
