/**
 * What /admin-fix-subscription shows about one customer, as plain values: their account, each
 * subscription beside Razorpay's record, payments, documents, grants, events, audit, devices and
 * support tickets.
 */
import { z } from "zod";
import { compareWithProvider } from "../billing/compare.server";
import { statusText } from "../billing/overview.server";
import { paymentMethodOf } from "../billing/payments.server";
import { sandboxControlsAvailable } from "../billing/sandbox-control.server";
import { planLabel } from "~/lib/plans";
import { customerBilling } from "./billing.server";
import { customerByEmail } from "./customers.server";
import { customerTickets } from "../support/tickets.server";

const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());

export async function fixSubscriptionView(rawEmail: string) {
  const sandbox = sandboxControlsAvailable();
  const empty = {
    email: rawEmail,
    customer: null,
    billing: null,
    comparisons: [],
    tickets: [],
    sandbox,
  };
  if (rawEmail.trim() === "") return { ...empty, error: null };
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success) return { ...empty, error: "Enter an email address like name@example.com." };
  const customer = await customerByEmail(parsed.data);
  if (!customer) return { ...empty, email: parsed.data, error: `No account uses ${parsed.data}.` };
  const [billing, tickets] = await Promise.all([
    customerBilling(customer.id),
    customerTickets(customer.id),
  ]);
  const running = billing.subscriptions
    .filter((row) => row.status !== "created" && row.status !== "expired")
    .slice(0, 3);
  const comparisons = await Promise.all(running.map((row) => compareWithProvider(row)));
  return {
    email: parsed.data,
    error: null,
    customer,
    sandbox,
    comparisons,
    tickets: tickets.map((ticket) => ({
      number: ticket.number,
      subject: ticket.subject,
      category: ticket.category,
      status: ticket.status,
      createdAt: ticket.createdAt.toISOString(),
      lastMessageAt: ticket.lastMessageAt.toISOString(),
    })),
    billing: {
      subscriptions: billing.subscriptions.map((row) => ({
        id: row.providerSubscriptionId,
        plan: planLabel(row.planId),
        status: statusText(row),
        rawStatus: row.status,
        currentEnd: row.currentEnd?.toISOString() ?? null,
        cancelReason: row.cancelReason,
      })),
      payments: billing.payments.map((payment) => ({
        id: payment.providerPaymentId,
        amountPaise: payment.amountPaise,
        refundedPaise: payment.amountRefundedPaise,
        status: payment.status,
        method: paymentMethodOf(payment).label,
        paidAt: payment.paidAt.toISOString(),
      })),
      events: billing.events.map((event) => ({
        ...event,
        receivedAt: event.receivedAt.toISOString(),
        processedAt: event.processedAt?.toISOString() ?? null,
      })),
      invoices: billing.invoices.map((row) => ({
        id: row.id,
        kind: row.kind,
        number: row.number,
        issuedAt: row.issuedAt.toISOString(),
        totalPaise: row.totalPaise,
        gstin: row.document.buyer.gstin,
        credited: billing.invoices.some((other) => other.originalInvoiceId === row.id),
      })),
      grants: billing.grants.map((grant) => ({
        id: grant.id,
        plan: planLabel(grant.planId),
        endsAt: grant.endsAt.toISOString(),
        reason: grant.reason,
      })),
      audit: billing.audit.map((entry) => ({
        id: entry.id,
        actor: entry.actorEmail,
        action: entry.action,
        target: entry.target,
        reason: entry.reason,
        before: entry.before === null ? "" : JSON.stringify(entry.before),
        after: entry.after === null ? "" : JSON.stringify(entry.after),
        at: entry.createdAt.toISOString(),
      })),
    },
  };
}

export type FixSubscriptionView = Awaited<ReturnType<typeof fixSubscriptionView>>;
export type FixCustomer = NonNullable<FixSubscriptionView["customer"]>;
export type FixBilling = NonNullable<FixSubscriptionView["billing"]>;
