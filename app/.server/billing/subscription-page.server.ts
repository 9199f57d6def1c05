/**
 * What /account/subscription shows, read once for its loader (the route stays thin): the plan and
 * where it comes from, the subscription's overview and renewal, the trial, the refund on offer,
 * the switch on offer. Its type is what the page's sections take.
 */
import { planShownFor } from "./plan-shown.server";
import type { AccountState } from "../account/account-state.server";
import type { SessionUser } from "../auth/session-shape";
import { findPlan, planLabel, planPriceLabel, switchTarget } from "~/lib/plans";
import { allows, STATUS_RULES } from "~/lib/subscription-state";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { trialCountdown, trialEndedWords } from "~/lib/trials";
import { TRIAL_REFUSALS, trialState } from "../trials/trials.server";
import { decideEntitlement } from "./entitlement.server";
import { paymentsConfig } from "./provider.server";
import { renewalOf } from "./renewal.server";
import { selfRefundStanding } from "./self-refund.server";
export async function subscriptionPage(user: SessionUser, state: AccountState, requestUrl: string) {
  const now = new Date();
  const entitlement = decideEntitlement(state, now);
  const { overview, renewal } = await renewalOf(user.id, entitlement, { now });
  const devicesInUse = state.activeDevices;
  const sub = overview.subscription;
  const current = sub ? findPlan(sub.planId) : undefined;
  const target = current ? switchTarget(current) : undefined;
  // The plan the customer is on today: a scheduled switch's plan gives the same Pro, but it is
  // not the current plan until its day (issue 34).
  const onSubscription =
    sub && current && entitlement.plan !== "free" && STATUS_RULES[sub.status].paying;
  const url = new URL(requestUrl);
  const standing =
    sub && allows(sub.state, "refund") ? await selfRefundStanding(user.id, { now }) : null;
  const offer = standing && "paymentId" in standing ? standing : null;
  const trial = await trialState(user, { now });
  const shown = planShownFor({
    entitlement,
    overview,
    trialEndsAt: trial.kind === "running" ? trial.trial.endsAt : null,
    now,
  });
  return {
    trial:
      trial.kind === "running"
        ? {
            kind: "running" as const,
            countdown: trialCountdown(trial.trial.endsAt, now),
            endsAt: trial.trial.endsAt.toISOString(),
          }
        : trial.kind === "eligible"
          ? { kind: "eligible" as const, days: trial.days }
          : trial.reason === "had-trial" || trial.reason === "mailbox-had-trial"
            ? {
                kind: "refused" as const,
                message:
                  trial.reason === "had-trial" && trial.trial
                    ? trialEndedWords(trial.trial.endsAt, trial.trial.endReason)
                    : TRIAL_REFUSALS[trial.reason],
              }
            : null,
    refund: {
      offer,
      /** Why there is none, when the subscription could have had one. */
      refused: standing && "refused" in standing ? standing.refused : null,
      /** The confirmation step: what the refund does, and the one button that does it. */
      review: offer !== null && url.searchParams.get("refund") === "review",
      windowDays: REFUND_WINDOW_DAYS,
    },
    plan: {
      id: onSubscription ? current.id : entitlement.plan,
      name: shown.name,
      features: entitlement.features,
      deviceLimit: entitlement.device_limit,
      until: entitlement.expires_at,
    },
    devicesInUse,
    overview,
    renewal,
    // Nobody holding Pro (a team's seat, a grant, a paused plan's paid time) is offered Pro or a
    // trial; a seat says whose it is.
    holdsPro: entitlement.plan !== "free",
    proFrom: { text: shown.text, teamId: shown.teamId, kind: shown.kind },
    switchOption: target
      ? {
          id: target.id,
          label: planLabel(target),
          price: planPriceLabel(target),
        }
      : null,
    testMode: paymentsConfig().testMode,
    notice: url.searchParams.get("notice"),
  };
}

export type SubscriptionPage = Awaited<ReturnType<typeof subscriptionPage>>;
