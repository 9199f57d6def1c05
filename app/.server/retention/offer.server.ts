/**
 * The one offer a customer sees when they open "Cancel subscription" (issue 59, point 1): the
 * operator's flow for the plan, if it applies to this subscription now, or none. Made once here
 * for the page and again for the action, so what is taken is what was shown.
 *
 * - A pause of N cycles: Pro to the end of the period paid, then nothing charged for N cycles; it
 *   resumes by itself after them (billing/pause-end.server.ts), with a notice before the charge.
 * - The yearly cycle, or the same plan at a coupon's price: a new subscription that starts when
 *   the paid period ends, authorised at checkout (the plan switch every customer has), never a
 *   silent change of what is charged.
 *
 * A team's seats are not offered any: a team cannot pause, and its cycle and price change with
 * a new order of seats (decision 0071).
 */
import { type CancelOfferView, cycleCount } from "~/lib/cancel-flow";
import { formatDate } from "~/lib/dates";
import { formatMoney, formatPrice } from "~/lib/money";
import {
  findPlan,
  isPaidPlanId,
  planLabel,
  planPriceIn,
  planPriceLabel,
  switchTarget,
} from "~/lib/plans";
import { allows } from "~/lib/subscription-state";
import type { SessionUser } from "../auth/session-shape";
import { nextCharge } from "../billing/charge-amount.server";
import { resumeAtAfter } from "../billing/pause-end.server";
import { stateOfRow } from "../billing/subscription-state.server";
import { scheduledSwitch } from "../billing/subscriptions.server";
import { couponView } from "../coupons/pricing-view.server";
import type { Executor } from "../db";
import type { SubscriptionRow } from "../db/schema";
import type { CancelFlow } from "./flows.server";

/** What taking the offer does. */
export type OfferTake = { kind: "pause"; cycles: number } | { kind: "checkout"; url: string };

export interface CancelOffer {
  view: CancelOfferView;
  /** Stored with the visit: the pause's cycles, or the coupon's code. */
  detail: string | null;
  take: OfferTake;
}

/** The offer of `flow` for this person's subscription, or null when none applies now. */
export async function cancelOfferFor(
  user: SessionUser,
  current: SubscriptionRow,
  rows: readonly SubscriptionRow[],
  flow: CancelFlow | undefined,
  executor: Executor,
): Promise<CancelOffer | null> {
  if (!flow?.offer || current.teamId || !current.currentEnd) return null;
  const plan = findPlan(current.planId);
  if (!plan?.billingCycle || scheduledSwitch(rows, current)) return null;
  const state = stateOfRow(current);
  const paidUntil = formatDate(current.currentEnd.toISOString());
  switch (flow.offer) {
    case "pause": {
      const resumeAt = flow.pauseCycles ? resumeAtAfter(current, flow.pauseCycles) : null;
      if (!allows(state, "pause") || !flow.pauseCycles || !resumeAt) return null;
      const length = cycleCount(flow.pauseCycles, plan.id);
      const charge = await nextCharge(current, executor);
      return {
        view: {
          kind: "pause",
          title: `Or pause for ${length}`,
          text: `You keep Pro until ${paidUntil}, then nothing is charged for ${length}. It resumes by itself on ${formatDate(resumeAt.toISOString())} at ${formatPrice(charge)}; we write three days before, and you can resume or cancel earlier.`,
          button: `Pause for ${length}`,
        },
        detail: String(flow.pauseCycles),
        take: { kind: "pause", cycles: flow.pauseCycles },
      };
    }
    case "yearly": {
      const yearly = switchTarget(plan);
      if (!allows(state, "switch") || plan.billingCycle !== "monthly" || !yearly) return null;
      const monthly = Math.round(planPriceIn(yearly, current.currency) / 12);
      return {
        view: {
          kind: "yearly",
          title: `Or move to ${planLabel(yearly)}`,
          text: `${planPriceLabel(yearly, current.currency)}: ${formatMoney(monthly, current.currency)} a month instead of ${planPriceLabel(plan, current.currency)}. It starts when your paid month ends on ${paidUntil}; you authorise it at checkout, and nothing is charged before that day.`,
          button: `Move to ${planLabel(yearly)}`,
        },
        detail: null,
        take: { kind: "checkout", url: `/checkout?plan=${yearly.id}&switch=1` },
      };
    }
    case "discount": {
      if (!allows(state, "switch") || !flow.coupon || current.currency !== "INR") return null;
      if (!isPaidPlanId(plan.id)) return null;
      // Every rule of the coupon, this customer's included (used up, once per mailbox).
      const view = (await couponView(flow.coupon.code, user, { database: executor })).plans[
        plan.id
      ];
      if (!view.ok) return null;
      return {
        view: {
          kind: "discount",
          title: `Or stay for ${formatMoney(view.pricePaise, "INR")}`,
          text: `With the coupon ${flow.coupon.code}: ${view.summary}, ${formatMoney(view.pricePaise, "INR")} instead of ${formatMoney(view.listPaise, "INR")}. It starts when your paid period ends on ${paidUntil}, as a new subscription you authorise at checkout; nothing changes before that day.`,
          button: `Stay for ${formatMoney(view.pricePaise, "INR")}`,
        },
        detail: flow.coupon.code,
        take: {
          kind: "checkout",
          url: `/checkout?plan=${plan.id}&switch=1&coupon=${encodeURIComponent(flow.coupon.code)}`,
        },
      };
    }
  }
}
