/**
 * "Cancel subscription" as one step (issue 59, point 1; decision 0071): the page shows what
 * cancelling does, an optional reason, and at most one offer; the form either cancels or takes
 * the offer, and both record the visit with the reason. Cancelling never waits on the offer:
 * declining it is cancelling. The same step for a person and for a team's seats.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import {
  CANCEL_REASON_LABELS,
  type CancelOfferView,
  type CancelReason,
  type CancelVisitOutcome,
} from "~/lib/cancel-flow";
import { isPaidPlanId, planLabel } from "~/lib/plans";
import { allows, STATE_RULES, type SubscriptionState } from "~/lib/subscription-state";
import { seatsText } from "~/lib/seats";
import type { SessionUser } from "../auth/session-shape";
import { type Buyer } from "../billing/buyer";
import { cancelAtPeriodEnd, pauseSubscription } from "../billing/manage.server";
import { stateOfRow } from "../billing/subscription-state.server";
import {
  primarySubscription,
  scheduledSwitch,
  subscriptionsOfBuyer,
} from "../billing/subscriptions.server";
import { db as defaultDb, type Database, type Executor } from "../db";
import { cancelFlowVisits, type SubscriptionRow } from "../db/schema";
import { AppError } from "../http/errors";
import { cancelFlowsByPlan } from "./flows.server";
import { type CancelOffer, cancelOfferFor } from "./offer.server";

export interface CancelFlowPage {
  planId: string;
  /** "Pro (monthly)", or a team's "Pro (monthly), 5 seats". */
  plan: string;
  /** What cancelling does to this subscription, in its state's words. */
  consequences: string;
  offer: CancelOfferView | null;
}

interface Flow {
  current: SubscriptionRow;
  state: SubscriptionState;
  offer: CancelOffer | null;
}

/** The buyer's subscription that can be cancelled, and the offer for it; null: none to cancel. */
async function flowFor(user: SessionUser, buyer: Buyer, database: Database): Promise<Flow | null> {
  const rows = await subscriptionsOfBuyer(buyer, database);
  const current = primarySubscription(rows);
  if (!current) return null;
  // A switch waiting to start makes it "switching", which cancelling withdraws too.
  const state = stateOfRow(current, { switchFollows: scheduledSwitch(rows, current) !== null });
  if (!allows(state, "cancel") || !STATE_RULES[state].cancel) return null;
  const flows = await cancelFlowsByPlan(database);
  const flow = isPaidPlanId(current.planId) ? flows[current.planId] : undefined;
  return { current, state, offer: await cancelOfferFor(user, current, rows, flow, database) };
}

/**
 * One undecided visit per subscription: opening the page again (or posting without opening it)
 * is the same visit, with the offer as it is now.
 */
async function openVisit(executor: Executor, flow: Flow): Promise<string> {
  const offer = { offer: flow.offer?.view.kind ?? null, offerDetail: flow.offer?.detail ?? null };
  const [row] = await executor
    .insert(cancelFlowVisits)
    .values({ subscriptionId: flow.current.id, planId: flow.current.planId, ...offer })
    .onConflictDoUpdate({
      target: cancelFlowVisits.subscriptionId,
      targetWhere: sql`${cancelFlowVisits.outcome} is null`,
      set: { planId: flow.current.planId, ...offer },
    })
    .returning({ id: cancelFlowVisits.id });
  if (!row) throw new Error("cancel flow visit not stored");
  return row.id;
}

async function decideVisit(
  executor: Executor,
  visitId: string,
  outcome: CancelVisitOutcome,
  answer: CancelAnswer,
): Promise<void> {
  await executor
    .update(cancelFlowVisits)
    .set({
      outcome,
      reason: answer.reason,
      reasonText: answer.details || null,
      decidedAt: new Date(),
    })
    .where(and(eq(cancelFlowVisits.id, visitId), isNull(cancelFlowVisits.outcome)));
}

/** The page: null when there is nothing to cancel (the route sends the customer back). */
export async function cancelFlowPage(
  user: SessionUser,
  buyer: Buyer,
  database: Database = defaultDb(),
): Promise<CancelFlowPage | null> {
  const flow = await flowFor(user, buyer, database);
  if (!flow) return null;
  await openVisit(database, flow);
  const { current, state } = flow;
  return {
    planId: current.planId,
    plan: current.teamId
      ? `${planLabel(current.planId)}, ${seatsText(current.seats)}`
      : planLabel(current.planId),
    consequences: STATE_RULES[state].cancel?.words ?? "",
    offer: flow.offer?.view ?? null,
  };
}

export interface CancelAnswer {
  reason: CancelReason | null;
  /** The customer's own words, optional. */
  details: string;
}

/** The subscription's cancel reason as the operator's pages show it. */
export function reasonWords(answer: CancelAnswer): string | null {
  const label = answer.reason ? CANCEL_REASON_LABELS[answer.reason] : null;
  if (label && answer.details) return `${label}: ${answer.details}`;
  return label ?? (answer.details || null);
}

export type CancelFlowResult =
  | { kind: "cancelled"; row: SubscriptionRow }
  | { kind: "paused"; row: SubscriptionRow }
  | { kind: "checkout"; url: string };

/** The step's form, answered: the button pressed, with the reason. */
export async function answerCancelFlow(
  user: SessionUser,
  buyer: Buyer,
  input: { intent: "cancel" | "take-offer" } & CancelAnswer,
  database: Database = defaultDb(),
): Promise<CancelFlowResult> {
  const answer = { reason: input.reason, details: input.details };
  return input.intent === "cancel"
    ? cancelFromFlow(user, buyer, answer, database)
    : takeCancelOffer(user, buyer, answer, database);
}

/** "Cancel my subscription": cancels as it always did, and records the answer. */
export async function cancelFromFlow(
  user: SessionUser,
  buyer: Buyer,
  answer: CancelAnswer,
  database: Database = defaultDb(),
): Promise<CancelFlowResult> {
  const flow = await flowFor(user, buyer, database);
  if (!flow) throw new AppError("conflict", "There is no running subscription to cancel.");
  const visitId = await openVisit(database, flow);
  const row = await cancelAtPeriodEnd(buyer, reasonWords(answer), { database });
  await decideVisit(database, visitId, "cancelled", answer);
  return { kind: "cancelled", row };
}

/** The offer's button: the offer as shown (made again now), or a refusal saying why not. */
export async function takeCancelOffer(
  user: SessionUser,
  buyer: Buyer,
  answer: CancelAnswer,
  database: Database = defaultDb(),
): Promise<CancelFlowResult> {
  const flow = await flowFor(user, buyer, database);
  if (!flow) throw new AppError("conflict", "There is no running subscription to change.");
  if (!flow.offer)
    throw new AppError(
      "conflict",
      "That offer is no longer available for your subscription. You can still cancel, or keep it as it is.",
    );
  const visitId = await openVisit(database, flow);
  const { take } = flow.offer;
  switch (take.kind) {
    case "pause": {
      const row = await pauseSubscription(user.id, { database, resumeAfterCycles: take.cycles });
      await decideVisit(database, visitId, "paused", answer);
      return { kind: "paused", row };
    }
    case "checkout":
      // Taken once the new subscription is authorised; the cockpit reads it from there.
      await decideVisit(database, visitId, "switch-started", answer);
      return { kind: "checkout", url: take.url };
  }
}
