import { Outlet } from "react-router";
import { accountState } from "~/.server/account/account-state.server";
import { requireSession } from "~/.server/auth/session";
import { accountBanner } from "~/.server/billing/overview.server";
import { BillingBanner } from "~/components/billing/BillingBanner";
import { SectionNav } from "~/components/SectionNav";
import { SignOutButton } from "~/components/SignOutButton";
import type { Route } from "./+types/layout";

const SECTIONS = [
  { to: "/account", label: "Overview", end: true },
  { to: "/account/usage", label: "Usage", end: false },
  { to: "/account/profile", label: "Profile", end: false },
  { to: "/account/security", label: "Security", end: false },
  { to: "/account/subscription", label: "Subscription", end: false },
  { to: "/account/team", label: "Teams", end: false },
  { to: "/billing", label: "Billing", end: false },
  { to: "/invoices", label: "Invoices", end: false },
  { to: "/account/support", label: "Support", end: false },
] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  // Failed payments show on every account page, not only where billing is.
  return { user, banner: accountBanner(await accountState(context)) };
}

export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-10 sm:px-6 md:flex-row">
      <div className="md:w-48">
        <SectionNav label="Account" sections={SECTIONS} />
        <div className="mt-6 hidden md:block">
          <SignOutButton />
        </div>
      </div>
      <div className="min-w-0 flex-1 space-y-6">
        <BillingBanner banner={loaderData.banner} />
        <Outlet />
      </div>
    </div>
  );
}
