import { Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { planShownFor } from "~/.server/billing/plan-shown.server";
import { trialOf } from "~/.server/trials/trials.server";
import { z } from "zod";
import { accountState } from "~/.server/account/account-state.server";
import { claimOnboardingEvents, onboardingProgressOf } from "~/.server/account/onboarding.server";
import { requireSession } from "~/.server/auth/session";
import { decideEntitlement } from "~/.server/billing/entitlement.server";
import { renewalOf } from "~/.server/billing/renewal.server";
import { formAction } from "~/.server/forms/action.server";
import { OnboardingChecklist } from "~/components/account/OnboardingChecklist";
import { ReferralCard } from "~/components/account/ReferralCard";
import { referralOverviewOf, referredNote } from "~/.server/referrals/overview.server";
import { PageHeader } from "~/components/PageHeader";
import { SignOutButton } from "~/components/SignOutButton";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/overview";

export const meta: Route.MetaFunction = () =>
  pageMeta("Account", "Your account, plan and devices.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const state = await accountState(context);
  const now = new Date();
  const entitlement = decideEntitlement(state, now);
  // Decision 0035: what the page shows was read with the session, in one statement; only a
  // subscription's details, a trial and a first referral code are read here, when there are any.
  const facts = state.overview;
  const [{ overview, renewal }, referral, trial] = await Promise.all([
    renewalOf(user.id, entitlement, { now, hasSubscriptions: state.subscriptions.length > 0 }),
    referralOverviewOf(user.id, undefined, {
      code: facts.referralCode,
      made: facts.referralsMade,
    }),
    // Only a person with Pro and none of their own might be on a trial: no read otherwise.
    entitlement.plan !== "free" && !entitlement.team ? trialOf(user.id) : null,
  ]);
  const invoice = facts.latestInvoice;
  const reported = facts.reportedSteps;
  const referred = referredNote(facts.referredBy);
  const shown = planShownFor({
    entitlement,
    overview,
    trialEndsAt: trial?.endsAt ?? null,
    now,
  });
  return {
    referral,
    referred,
    onboardingReported: reported,
    renewal: renewal && { sentence: renewal.sentence, fix: renewal.fix },
    lastInvoice: invoice && {
      id: invoice.id,
      number: invoice.number,
      kind: invoice.kind,
      issuedAt: invoice.issuedAt.toISOString(),
      total: invoice.total,
    },
    user: { id: user.id, name: user.name, email: user.email, role: user.role },
    onboarding: onboardingProgressOf(state.onboarding, now),
    plan: {
      name: shown.name,
      source: shown.text,
      deviceLimit: entitlement.device_limit,
      devicesInUse: state.activeDevices,
    },
  };
}

const reportOnboarding = z.object({ intent: z.literal("report-onboarding") });

/**
 * The checklist's analytics events this browser may send, claimed on the server (each once per
 * person ever); the browser asks only with consent (components/account/OnboardingChecklist.tsx).
 */
export async function action(args: Route.ActionArgs) {
  return formAction(args, reportOnboarding, async (_input, { user }) => ({
    intent: "report-onboarding",
    ok: true,
    toSend: await claimOnboardingEvents(user.id),
  }));
}

/** Claiming analytics events changes nothing the page shows: no need to load it again. */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formData?.get("intent") === "report-onboarding" ? false : defaultShouldRevalidate;
}

export default function AccountOverview({ loaderData }: Route.ComponentProps) {
  const { user, plan, onboarding, onboardingReported, renewal, lastInvoice, referral, referred } =
    loaderData;
  return (
    <div>
      <PageHeader title="Account" lead={`Signed in as ${user.email}`} />
      <OnboardingChecklist progress={onboarding} reported={onboardingReported} />
      <dl className="grid gap-4 sm:grid-cols-2">
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-5">
          <dt className="text-sm text-slate-400">Name</dt>
          <dd className="mt-1 text-lg font-semibold text-white">{user.name}</dd>
        </div>
        <div className="rounded-xl border border-slate-800 bg-slate-900 p-5">
          <dt className="text-sm text-slate-400">Plan</dt>
          <dd className="mt-1 text-lg font-semibold text-white" data-testid="current-plan">
            {plan.name}
          </dd>
          {plan.source ? (
            <dd className="mt-1 text-sm text-slate-300" data-testid="pro-source">
              {plan.source}
            </dd>
          ) : null}
          <dd className="mt-1 text-sm text-slate-400">
            Desktop devices in use: {plan.devicesInUse} of {plan.deviceLimit}.{" "}
            <Link to="/pricing" className="link">
              Compare plans
            </Link>
          </dd>
        </div>
      </dl>
      {renewal ? (
        <section
          aria-labelledby="subscription-summary"
          className="mt-4 rounded-xl border border-slate-800 bg-slate-900 p-5"
        >
          <h2 id="subscription-summary" className="text-sm text-slate-400">
            Subscription
          </h2>
          <p className="mt-1 text-white" data-testid="renewal-sentence">
            {renewal.sentence}
          </p>
          {lastInvoice ? (
            <p className="mt-2 text-sm text-slate-400" data-testid="last-invoice">
              {`Last ${lastInvoice.kind === "credit_note" ? "credit note" : "invoice"}: `}
              <a href={`/invoices/${lastInvoice.id}.pdf`} className="link">
                {lastInvoice.number}
              </a>
              {`, ${formatPrice(lastInvoice.total)} on ${formatDate(lastInvoice.issuedAt)}.`}
            </p>
          ) : null}
          <p className="mt-3 flex flex-wrap gap-3">
            {renewal.fix ? (
              <Link to={renewal.fix.to} className="btn-primary">
                {renewal.fix.label}
              </Link>
            ) : null}
            <Link to="/account/subscription" className="link self-center">
              Manage subscription
            </Link>
            <Link to="/invoices" className="link self-center">
              All invoices
            </Link>
          </p>
        </section>
      ) : null}
      {referral ? <ReferralCard referral={referral} /> : null}
      {referred ? (
        <p className="mt-4 text-sm text-slate-300" data-testid="referred-note">
          {referred}
        </p>
      ) : null}
      <ul className="mt-8 flex flex-wrap gap-3">
        <li>
          <Link className="btn-secondary" to="/download">
            Download the app
          </Link>
        </li>
        <li>
          <Link className="btn-secondary" to="/account/security">
            Security
          </Link>
        </li>
        {user.role === "admin" ? (
          <li>
            <Link className="btn-secondary" to="/admin">
              Admin
            </Link>
          </li>
        ) : null}
      </ul>
      <div className="mt-8 md:hidden">
        <SignOutButton />
      </div>
    </div>
  );
}
