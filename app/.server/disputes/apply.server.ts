/**
 * Disputes (issue 59, point 4): a chargeback raised by a customer's bank, as Razorpay reports it.
 * Stored from `payment.dispute.*` webhooks in the webhook's own transaction (processed once,
 * however often it arrives), always from the state Razorpay gives now (fetched while processing),
 * so a late `created` cannot reopen a decided dispute. The operator is alerted when one opens and
 * when it is decided; a lost one is settled once: its amount is credited (a credit note, as for a
 * refund) and, when it leaves the period it paid for unpaid, Pro ends as a refund ends it.
 */
import { eq } from "drizzle-orm";
import { formatDateTime } from "~/lib/dates";
import { formatProviderMoney } from "~/lib/money";
import { subscriptionCustomer } from "../alerts/customer-path.server";
import { raiseAlert } from "../alerts/raise.server";
import { endUnpaidPeriod } from "../billing/refunded-period.server";
import type { RazorpayDispute } from "../billing/razorpay/types";
import type { Executor } from "../db";
import { type DisputeRow, disputes, payments } from "../db/schema";
import { issueCreditNoteForDispute } from "../invoices/issue.server";
import { disputePagePath } from "~/lib/admin-paths";
import { DISPUTE_RULES } from "~/lib/disputes";

/** Records Razorpay's current state of a dispute, alerting and settling on the way. */
export async function applyDispute(executor: Executor, dispute: RazorpayDispute): Promise<void> {
  const [payment] = await executor
    .select({ subscriptionId: payments.subscriptionId, userId: payments.userId })
    .from(payments)
    .where(eq(payments.providerPaymentId, dispute.payment_id));
  const values = {
    providerPaymentId: dispute.payment_id,
    amountMinor: dispute.amount,
    currency: dispute.currency,
    amountDeductedMinor: dispute.amount_deducted,
    status: dispute.status,
    phase: dispute.phase ?? null,
    reasonCode: dispute.reason_code ?? null,
    reason: dispute.reason_description ?? null,
    respondBy: dispute.respond_by ? new Date(dispute.respond_by * 1000) : null,
    updatedAt: new Date(),
  };
  // Two events of a new dispute processed at once (two workers): one inserts, the other waits on
  // the row's lock and reads it as it was before its own change.
  const inserted = await executor
    .insert(disputes)
    .values({
      providerDisputeId: dispute.id,
      openedAt: new Date(dispute.created_at * 1000),
      subscriptionId: payment?.subscriptionId ?? null,
      userId: payment?.userId ?? null,
      ...values,
    })
    .onConflictDoNothing({ target: disputes.providerDisputeId })
    .returning({ subscriptionId: disputes.subscriptionId });
  let before: DisputeRow | undefined;
  if (inserted.length === 0) {
    [before] = await executor
      .select()
      .from(disputes)
      .where(eq(disputes.providerDisputeId, dispute.id))
      .for("update");
    await executor
      .update(disputes)
      .set({
        ...values,
        subscriptionId: payment?.subscriptionId ?? before?.subscriptionId ?? null,
        userId: payment?.userId ?? before?.userId ?? null,
      })
      .where(eq(disputes.providerDisputeId, dispute.id));
  }
  const subscriptionId = payment?.subscriptionId ?? before?.subscriptionId ?? null;

  const customer = subscriptionId ? await subscriptionCustomer(executor, subscriptionId) : null;
  const who = customer?.email ?? "a customer";
  const amount = formatProviderMoney(dispute.amount, dispute.currency);
  const path = disputePagePath(dispute.id);
  // One alert per step (its key), however many events describe it.
  if (!before)
    await raiseAlert(executor, {
      kind: "dispute",
      key: `dispute-open:${dispute.id}`,
      summary: `${who}'s bank disputes a payment of ${amount} (${dispute.payment_id})${values.respondBy ? `: answer with evidence by ${formatDateTime(values.respondBy)}` : ""}.`,
      path,
    });
  const { outcome } = DISPUTE_RULES[dispute.status];
  if (before?.status !== dispute.status && outcome)
    await raiseAlert(executor, {
      kind: "dispute",
      key: `dispute-${outcome}:${dispute.id}`,
      summary:
        outcome === "won"
          ? `The dispute of ${who}'s payment of ${amount} was decided for you: the money stays.`
          : `The dispute of ${who}'s payment of ${amount} was lost: ${formatProviderMoney(dispute.amount_deducted, dispute.currency)} is deducted from the settlement, a credit note is issued and the period it paid ends.`,
      path,
    });
  if (outcome === "lost" && !before?.lostSettledAt) await settleLost(executor, dispute);
}

/** A lost dispute, once: the credit note for what the bank took back, and the period it ends. */
async function settleLost(executor: Executor, dispute: RazorpayDispute): Promise<void> {
  await executor
    .update(disputes)
    .set({ lostSettledAt: new Date() })
    .where(eq(disputes.providerDisputeId, dispute.id));
  await issueCreditNoteForDispute(executor, {
    disputeId: dispute.id,
    paymentId: dispute.payment_id,
    amountMinor: dispute.amount_deducted || dispute.amount,
    at: new Date(),
  });
  await endUnpaidPeriod(executor, dispute.payment_id, "dispute-lost");
}
