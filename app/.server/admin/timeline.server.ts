/**
 * One customer's history on one timeline (issue 33, point 5): subscriptions and Razorpay's
 * events, payments (failed ones too) and refunds, invoices and credit notes, tickets, the mails
 * we sent, sign-up and devices, admin actions, and the key site analytics events of the browser
 * they bought in (only when they had consented; privacy policy). Newest first, filtered by kind.
 */
import { inArray } from "drizzle-orm";
import { TIMELINE_LIMIT, type TimelineEntry, type TimelineKind } from "~/lib/customer-timeline";
import { formatDate } from "~/lib/dates";
import { type Currency, formatInr, formatMoney } from "~/lib/money";
import { planLabel } from "~/lib/plans";
import type { Database } from "../db";
import {
  TRIAL_GRANT_REASON,
  type auditLog,
  type InvoiceRow,
  type PaymentRow,
  refunds,
  type SubscriptionRow,
} from "../db/schema";
import type { MailRecord } from "../mail/mail-log.server";
import type { TicketSummary } from "../support/tickets.server";
import { eventsOfPurchaseBrowsers } from "../analytics/purchase-browser.server";
import { paymentMethodOf } from "../billing/payments.server";
import { statusText } from "../billing/overview.server";

/** The analytics events worth an operator's look; page views and clicks stay in the cockpit. */
export const KEY_ANALYTICS_EVENTS = [
  "view_pricing",
  "plan_select",
  "begin_checkout",
  "purchase",
  "subscription_start",
  "subscription_cancel",
  "subscription_upgrade",
  "app_download",
  "exception",
  "form_submit",
  "onboarding_complete",
] as const;

export interface TimelineSources {
  account: {
    createdAt: string;
    devices: {
      name: string;
      platform: string;
      appVersion: string;
      createdAt: string;
      lastSeenAt: string;
    }[];
  };
  subscriptions: SubscriptionRow[];
  payments: PaymentRow[];
  refunds: {
    providerRefundId: string;
    providerPaymentId: string;
    amountPaise: number;
    currency: Currency;
    status: string;
    arn: string | null;
    createdAt: Date;
  }[];
  invoices: Pick<
    InvoiceRow,
    "kind" | "number" | "issuedAt" | "totalPaise" | "currency" | "currencyAmount"
  >[];
  grants: { planId: string; endsAt: Date; reason: string; createdAt: Date }[];
  events: {
    eventId: string;
    event: string;
    providerSubscriptionId: string | null;
    receivedAt: Date;
    processedAt: Date | null;
  }[];
  audit: Pick<
    typeof auditLog.$inferSelect,
    "actorEmail" | "action" | "target" | "reason" | "createdAt"
  >[];
  tickets: TicketSummary[];
  mails: MailRecord[];
  analytics: { name: string; params: unknown; occurredAt: Date }[];
}

type Entry = Omit<TimelineEntry, "at" | "problem"> & { at: Date | string; problem?: boolean };

/** Everything the sources say, newest first (not yet filtered or cut). */
export function timelineEntries(sources: TimelineSources): TimelineEntry[] {
  const entries: Entry[] = [
    { at: sources.account.createdAt, kind: "account", title: "Signed up", detail: "" },
    ...sources.account.devices.map((device): Entry => ({
      at: device.createdAt,
      kind: "account",
      title: `Signed in on the app: ${device.name}`,
      detail: `${device.platform}, version ${device.appVersion}; last seen ${device.lastSeenAt.slice(0, 10)}`,
    })),
    ...sources.subscriptions.flatMap((row): Entry[] => {
      const plan = planLabel(row.planId);
      const list: Entry[] = [
        {
          at: row.createdAt,
          kind: "billing",
          title: `Subscription created: ${plan}`,
          detail: `${row.providerSubscriptionId}; now: ${statusText(row)}`,
        },
      ];
      if (row.pausedAt)
        list.push({
          at: row.pausedAt,
          kind: "billing",
          title: `Subscription paused: ${plan}`,
          detail:
            row.pausedBy === "customer"
              ? "by the customer, in their UPI app or bank"
              : "on this site",
        });
      if (row.endedAt)
        list.push({
          at: row.endedAt,
          kind: "billing",
          title: `Subscription ended: ${plan}`,
          detail: statusText(row),
        });
      return list;
    }),
    ...sources.events.map((event): Entry => ({
      at: event.receivedAt,
      kind: "billing",
      title: `Razorpay: ${event.event}`,
      detail:
        `${event.providerSubscriptionId ?? ""} ${event.processedAt ? "processed" : "not processed yet"}`.trim(),
      problem: event.processedAt === null,
    })),
    ...sources.payments.map((payment): Entry => {
      const failed = payment.status === "failed";
      const refunded =
        payment.amountRefundedPaise > 0
          ? `; ${formatMoney(payment.amountRefundedPaise, payment.currency)} refunded`
          : "";
      return {
        at: payment.paidAt,
        kind: "payments",
        title: failed
          ? `Payment of ${formatMoney(payment.amountPaise, payment.currency)} failed`
          : `Payment of ${formatMoney(payment.amountPaise, payment.currency)} ${payment.status}`,
        detail: `${payment.providerPaymentId}, ${paymentMethodOf(payment).label}${failed && payment.errorDescription ? `: ${payment.errorDescription}` : ""}${refunded}`,
        problem: failed,
      };
    }),
    ...sources.refunds.map((refund): Entry => ({
      at: refund.createdAt,
      kind: "payments",
      title: `Refund of ${formatMoney(refund.amountPaise, refund.currency)} ${refund.status}`,
      detail: `${refund.providerRefundId} of ${refund.providerPaymentId}${refund.arn ? `; bank reference ${refund.arn}` : ""}`,
    })),
    ...sources.invoices.map((document): Entry => ({
      at: document.issuedAt,
      kind: "documents",
      title: `${document.kind === "credit_note" ? "Credit note" : "Invoice"} ${document.number} issued`,
      // An export: its amount in its currency, and the rupee value the GST returns carry.
      detail:
        document.currencyAmount === null
          ? formatInr(document.totalPaise)
          : `${formatMoney(document.currencyAmount, document.currency)} (${formatInr(document.totalPaise)})`,
    })),
    ...sources.grants.map((grant): Entry =>
      // A free trial is the customer's own doing, not an admin action (issue 36).
      grant.reason === TRIAL_GRANT_REASON
        ? {
            at: grant.createdAt,
            kind: "billing",
            title: `Started a free Pro trial, until ${formatDate(grant.endsAt.toISOString())}`,
            detail: "No card; Free again afterwards unless they buy",
          }
        : {
            at: grant.createdAt,
            kind: "audit",
            title: `Given ${planLabel(grant.planId)} until ${formatDate(grant.endsAt.toISOString())}`,
            detail: grant.reason,
          },
    ),
    ...sources.audit.map((entry): Entry => ({
      at: entry.createdAt,
      kind: "audit",
      title: `${entry.action} by ${entry.actorEmail}`,
      detail: [entry.target, entry.reason].filter(Boolean).join(": "),
    })),
    ...sources.tickets.map((ticket): Entry => ({
      at: ticket.createdAt,
      kind: "support",
      title: `Ticket #${ticket.number} opened: ${ticket.subject}`,
      detail: `${ticket.category}; ${ticket.status}`,
    })),
    ...sources.mails.map((mail): Entry => ({
      at: mail.lastAttemptAt,
      kind: "mail",
      title: `Mail ${mail.status === "sent" ? "sent" : "not sent yet"}: ${mail.subject}`,
      detail:
        mail.status === "sent"
          ? mail.attempts > 1
            ? `after ${mail.attempts} tries`
            : ""
          : `${mail.attempts} ${mail.attempts === 1 ? "try" : "tries"}; ${mail.lastError ?? "no error given"}`,
      problem: mail.status === "failed",
    })),
    ...sources.analytics.map((event): Entry => analyticsEntry(event)),
  ];
  return entries
    .map((entry) => ({
      ...entry,
      at: typeof entry.at === "string" ? entry.at : entry.at.toISOString(),
      problem: entry.problem ?? false,
    }))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

function param(params: unknown, name: string): string {
  if (typeof params !== "object" || params === null) return "";
  const value = (params as Record<string, unknown>)[name];
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : "";
}

function analyticsEntry(event: { name: string; params: unknown; occurredAt: Date }): Entry {
  const p = (name: string) => param(event.params, name);
  const entry = (title: string, detail = "", problem = false): Entry => ({
    at: event.occurredAt,
    kind: "analytics",
    title,
    detail,
    problem,
  });
  switch (event.name) {
    case "exception":
      return entry(
        `Site error: ${p("error_type")}`,
        `${p("description")} at ${p("location")}`,
        true,
      );
    case "form_submit":
      return p("success") === "false"
        ? entry(`Form refused: ${p("form_name")}`, "", true)
        : entry(`Form sent: ${p("form_name")}`);
    case "app_download":
      return entry(`Downloaded the app for ${p("platform") === "mac" ? "Mac" : "Windows"}`);
    case "view_pricing":
      return entry("Viewed pricing", p("billing_cycle"));
    case "begin_checkout":
      return entry("Began checkout", p("plan_name"));
    default:
      return entry(event.name.replaceAll("_", " "), p("plan_name"));
  }
}

/** The entries of the chosen kinds, newest first, at most TIMELINE_LIMIT; and how many matched. */
export function filterTimeline(entries: TimelineEntry[], kinds: readonly TimelineKind[]) {
  const matching = entries.filter((entry) => kinds.includes(entry.kind));
  return { entries: matching.slice(0, TIMELINE_LIMIT), total: matching.length };
}

/** The customer's refunds and key analytics events, which the billing view does not load. */
export async function timelineExtras(
  database: Database,
  input: { paymentIds: string[]; analyticsClientIds: string[] },
) {
  const [refundRows, analytics] = await Promise.all([
    input.paymentIds.length
      ? database
          .select({
            providerRefundId: refunds.providerRefundId,
            providerPaymentId: refunds.providerPaymentId,
            amountPaise: refunds.amountPaise,
            currency: refunds.currency,
            status: refunds.status,
            arn: refunds.arn,
            createdAt: refunds.createdAt,
          })
          .from(refunds)
          .where(inArray(refunds.providerPaymentId, input.paymentIds))
      : Promise.resolve([]),
    // Only the browser(s) they bought in with consent, and only the events worth a look.
    eventsOfPurchaseBrowsers(database, input.analyticsClientIds, KEY_ANALYTICS_EVENTS),
  ]);
  return { refunds: refundRows, analytics };
}
