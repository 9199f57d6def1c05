/**
 * The plan an account page shows and where it comes from (issue 54, point 2), decided once for
 * /account and /account/subscription from what each page read anyway: the entitlement, the
 * subscription's overview and the trial.
 */
import { planShown, type PlanShown } from "~/lib/pro-source";
import { STATE_RULES } from "~/lib/subscription-state";
import type { BillingOverview } from "./overview.server";

export function planShownFor(input: {
  entitlement: { plan: string; expires_at: string | null; team?: { id: string; name: string } };
  overview: BillingOverview;
  /** The person's free trial while it runs (null otherwise). */
  trialEndsAt: Date | string | null;
  now: Date;
}): PlanShown {
  const { entitlement, overview, now } = input;
  const sub = overview.subscription;
  const trialEndsAt =
    input.trialEndsAt && new Date(input.trialEndsAt) > now
      ? new Date(input.trialEndsAt).toISOString()
      : null;
  // One's own subscription is the source while it gives Pro now: charging (or retrying), or in
  // the paid time a pause or a cancellation leaves. A plan authorised to start when the trial
  // ends is not, until it starts: the trial is.
  const grants = sub ? STATE_RULES[sub.state].grants : "nothing";
  const ownGives =
    sub !== null &&
    !(trialEndsAt && sub.state === "authorised") &&
    (grants === "to-next-charge" ||
      (grants === "paid-period" && sub.currentEnd !== null && new Date(sub.currentEnd) > now));
  return planShown({
    entitlement,
    ownPlanId: ownGives && !entitlement.team ? sub.planId : null,
    trialEndsAt,
    now,
  });
}
