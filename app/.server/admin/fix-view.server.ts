/**
 * What the operator's customer page (/admin/customers/:id, and /admin-fix-subscription?email=)
 * shows about one customer, as plain values: their account, each subscription beside Razorpay's
 * record, payments, documents, grants, events, audit, devices, support tickets, and all of it
 * with the mails sent and key analytics events on one timeline.
 */
import { STATUS_RULES } from "~/lib/subscription-state";
import { z } from "zod";
import { compareWithProvider } from "../billing/compare.server";
import { statusText } from "../billing/overview.server";
import { paymentMethodOf } from "../billing/payments.server";
import { sandboxControlsAvailable } from "../billing/sandbox-control.server";
import { planLabel } from "~/lib/plans";
import { customerBilling } from "./billing-reads.server";
import { type Customer, findCustomer } from "./customers.server";
import { customerTickets } from "../support/tickets.server";
import { db } from "../db";
import { purchaseBrowserIds } from "../analytics/purchase-browser.server";
import { trialOf } from "../trials/trials.server";
import { teamsOf } from "../teams/teams.server";
import { TEAM_ROLE_LABELS } from "../teams/roles";
import { subscriptionCouponText } from "../coupons/subscription-coupon.server";
import { mailsTo } from "../mail/mail-log.server";
import { filterTimeline, timelineEntries, timelineExtras } from "./timeline.server";
import { TIMELINE_KINDS, type TimelineKind } from "~/lib/customer-timeline";

const emailSchema = z.string().trim().toLowerCase().max(320).pipe(z.email());

/** The page found nobody: what the lookup form says. */
function emptyView(email: string, error: string | null, kinds: readonly TimelineKind[]) {
  return {
    email,
    error,
    customer: null,
    billing: null,
    comparisons: [],
    tickets: [],
    timeline: { entries: [], total: 0, kinds: [...kinds] },
    sandbox: sandboxControlsAvailable(),
  };
}

/** /admin-fix-subscription?email=: the customer who uses this address. */
export async function fixSubscriptionView(
  rawEmail: string,
  kinds: readonly TimelineKind[] = TIMELINE_KINDS,
) {
  if (rawEmail.trim() === "") return emptyView(rawEmail, null, kinds);
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success)
    return emptyView(rawEmail, "Enter an email address like name@example.com.", kinds);
  const customer = await findCustomer({ email: parsed.data });
  if (!customer) return emptyView(parsed.data, `No account uses ${parsed.data}.`, kinds);
  return customerView(customer, kinds);
}

/** /admin/customers/:id: null when no account has this id (the page answers 404). */
export async function customerPageView(id: string, kinds: readonly TimelineKind[]) {
  const customer = await findCustomer({ id });
  return customer ? customerView(customer, kinds) : null;
}

async function customerView(customer: Customer, kinds: readonly TimelineKind[]) {
  const sandbox = sandboxControlsAvailable();
  const [billing, tickets, mails, trial, teams] = await Promise.all([
    customerBilling(customer.id),
    customerTickets(customer.id),
    mailsTo(customer.email),
    trialOf(customer.id),
    teamsOf(customer.id),
  ]);
  // The coupon each subscription was bought with, and what is left of it (issue 36, point 6).
  const coupons = await Promise.all(
    billing.subscriptions.map((row) => subscriptionCouponText(row)),
  );
  const extras = await timelineExtras(db(), {
    paymentIds: billing.payments.map((payment) => payment.providerPaymentId),
    analyticsClientIds: purchaseBrowserIds(billing.subscriptions),
  });
  const timeline = filterTimeline(
    timelineEntries({
      account: customer,
      subscriptions: billing.subscriptions,
      payments: billing.payments,
      refunds: extras.refunds,
      invoices: billing.invoices,
      grants: billing.grants,
      events: billing.events,
      audit: billing.audit,
      tickets,
      mails,
      analytics: extras.analytics,
    }),
    kinds,
  );
  const running = billing.subscriptions
    .filter((row) => STATUS_RULES[row.status].started)
    .slice(0, 3);
  const comparisons = await Promise.all(running.map((row) => compareWithProvider(row)));
  return {
    email: customer.email,
    error: null,
    customer,
    sandbox,
    comparisons,
    timeline: { ...timeline, kinds: [...kinds] },
    tickets: tickets.map((ticket) => ({
      number: ticket.number,
      subject: ticket.subject,
      category: ticket.category,
      status: ticket.status,
      createdAt: ticket.createdAt.toISOString(),
      lastMessageAt: ticket.lastMessageAt.toISOString(),
    })),
    billing: {
      subscriptions: billing.subscriptions.map((row, index) => ({
        id: row.providerSubscriptionId,
        coupon: coupons[index] ?? null,
        plan: planLabel(row.planId),
        status: statusText(row),
        rawStatus: row.status,
        currentEnd: row.currentEnd?.toISOString() ?? null,
        cancelReason: row.cancelReason,
      })),
      payments: billing.payments.map((payment) => ({
        id: payment.providerPaymentId,
        amountPaise: payment.amountPaise,
        currency: payment.currency,
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
      teams: teams.map((team) => ({ ...team, roleLabel: TEAM_ROLE_LABELS[team.role] })),
      trial: trial
        ? {
            source: trial.source,
            startedAt: trial.startedAt.toISOString(),
            endsAt: trial.endsAt.toISOString(),
            running: trial.endsAt > new Date(),
            endReason: trial.endReason,
          }
        : null,
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
