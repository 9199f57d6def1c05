/**
 * Disputes as a bank raises them and Razorpay reports them: on a captured payment, open with a
 * date the evidence is due, then under review, won, lost (the amount deducted from the
 * settlement) or closed; each step sends `payment.dispute.<status>` with the payment and the
 * dispute. Raised and decided on control routes, as the Dashboard's test mode does.
 */
import type { DisputeEntity } from "./entities";
import { emit, type Tx } from "./state";
import { badRequest, newId, notFound } from "./util";

/** Razorpay gives the merchant about a week to answer a chargeback. */
const RESPOND_WITHIN_SECONDS = 7 * 86_400;

export const DISPUTE_OUTCOMES = ["under_review", "won", "lost", "closed"] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

const NEXT: Record<DisputeEntity["status"], readonly DisputeOutcome[]> = {
  open: ["under_review", "won", "lost", "closed"],
  under_review: ["won", "lost"],
  won: [],
  lost: [],
  closed: [],
};

export function raiseDispute(
  tx: Tx,
  paymentId: string,
  input: { amount?: number | undefined; reason_code?: string | undefined },
): DisputeEntity {
  const record = tx.state.payments[paymentId];
  if (!record) throw notFound();
  const payment = record.entity;
  if (payment.status !== "captured" && payment.status !== "refunded")
    throw badRequest("Only captured payments can be disputed", "payment_id");
  const left = payment.amount - payment.amount_refunded;
  const amount = input.amount ?? left;
  if (amount <= 0 || amount > left)
    throw badRequest("The dispute amount is more than the payment has left", "amount");
  const dispute: DisputeEntity = {
    id: newId("disp"),
    entity: "dispute",
    payment_id: payment.id,
    amount,
    currency: payment.currency,
    amount_deducted: 0,
    reason_code: input.reason_code ?? "chargeback",
    reason_description: "The customer's bank has raised a chargeback for this payment.",
    respond_by: tx.now + RESPOND_WITHIN_SECONDS,
    status: "open",
    phase: "chargeback",
    created_at: tx.now,
  };
  (tx.state.disputes ??= {})[dispute.id] = dispute;
  emit(tx, "payment.dispute.created", { payment, dispute });
  return dispute;
}

export function decideDispute(tx: Tx, disputeId: string, outcome: DisputeOutcome): DisputeEntity {
  const dispute = tx.state.disputes?.[disputeId];
  if (!dispute) throw notFound();
  if (!NEXT[dispute.status].includes(outcome))
    throw badRequest(`A dispute that is ${dispute.status} cannot become ${outcome}`);
  dispute.status = outcome;
  if (outcome === "lost") dispute.amount_deducted = dispute.amount;
  const payment = tx.state.payments[dispute.payment_id]?.entity;
  emit(tx, `payment.dispute.${outcome}`, { payment, dispute });
  return dispute;
}
