/**
 * Billing mail goes through the job queue: queued in the transaction that records what happened
 * (deduplicated, so a replayed event mails nobody twice), rendered and sent by the worker with
 * the data as it is then.
 */
import { buyerOf, personBuyer } from "./buyer";
import type { PlanSourceKind } from "~/lib/pro-source";
import { billingOverview } from "./overview.server";
import { planShownFor } from "./plan-shown.server";
import { seatTopupPaidBy } from "../teams/topups.server";
import { entitlementFor } from "./entitlement.server";
import { trialOf } from "../trials/trials.server";
import {
  allows,
  STATUS_RULES,
  statusesWhere,
  type SubscriptionStatus,
} from "~/lib/subscription-state";
import { stateOfRow } from "./subscription-state.server";
import { nextCharge } from "./charge-amount.server";
import { issueBillingLink } from "./billing-links.server";
import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { site } from "~/config/site";
import { planById, planLabel, isPaidPlanId } from "~/lib/plans";
import { seatsText } from "~/lib/seats";
import { mandateWords, switchKindOf } from "~/lib/plan-switch";
import { type Database, db as defaultDb, type Executor } from "../db";
import {
  invoiceColumns,
  invoices,
  member as members,
  organization as organizations,
  payments,
  refunds,
  subscriptions,
  type SubscriptionRow,
  user as users,
} from "../db/schema";
import { env } from "../env";
import { defineJob, enqueue } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import {
  type ProKept,
  cancellationMessage,
  resumedMessage,
  paymentFailedMessage,
  paymentReceivedMessage,
  planChangeMessage,
  duplicateCancelledMessage,
  refundedMessage,
  pauseEndedMessage,
  pauseEndingMessage,
  pausedMessage,
  renewalReminderMessage,
  subscriptionHaltedMessage,
  switchWithdrawnMessage,
} from "../mail/billing-templates";
import { type MailMessage, type SendOptions, sendMail } from "../mail/mailer.server";
import { invoiceForPayment } from "../invoices/issue.server";
import { invoicePdf } from "../invoices/stored-pdf.server";

export const BILLING_MAIL_JOB = "mail.billing";
const TEMPLATES = [
  "payment-received",
  "payment-failed",
  "halted",
  "cancelled",
  "resumed",
  "plan-change",
  "switch-withdrawn",
  "refunded",
  "duplicate-cancelled",
  "renewal-reminder",
  "paused",
  "pause-ended",
  "pause-ending",
] as const;
export type BillingMail = (typeof TEMPLATES)[number];

export async function queueBillingMail(
  executor: Executor,
  template: BillingMail,
  subscriptionId: string,
  dedupe: string,
  extra: {
    paymentId?: string;
    refundId?: string;
    runAt?: Date;
    chargeAt?: string;
    /** A pause's end the notice announces: no notice if the pause was resumed or moved. */
    resumeAt?: string;
  } = {},
): Promise<void> {
  const { runAt, ...rest } = extra;
  await enqueue(
    executor,
    billingMailJob,
    { template, subscriptionId, ...rest },
    { dedupeKey: `mail:${template}:${subscriptionId}:${dedupe}`, runAt },
  );
}

const payloadSchema = z.object({
  template: z.enum(TEMPLATES),
  subscriptionId: z.uuid(),
  paymentId: z.string().optional(),
  refundId: z.string().optional(),
  chargeAt: z.string().optional(),
  resumeAt: z.string().optional(),
});

/** A subscription as its mails name it: its plan, and a team's number of seats. */
function labelOf(row: Pick<SubscriptionRow, "planId" | "teamId" | "seats">): string {
  return row.teamId ? `${planLabel(row.planId)}, ${seatsText(row.seats)}` : planLabel(row.planId);
}

/**
 * Who a subscription's billing mails go to: its buyer, or for a team's seats (issue 37) the
 * team's owners and billing managers, together on one mail, greeted by the team's name.
 */
async function recipientsOf(
  database: Database,
  subscriptionId: string,
): Promise<{ subscription: SubscriptionRow; email: string; name: string } | null> {
  const [row] = await database
    .select({ subscription: subscriptions, email: users.email, name: users.name })
    .from(subscriptions)
    .leftJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(subscriptions.id, subscriptionId));
  if (!row) return null;
  const { subscription } = row;
  const buyer = buyerOf(subscription);
  if (!buyer) return null;
  switch (buyer.kind) {
    case "person":
      return row.email && row.name !== null
        ? { subscription, email: row.email, name: row.name }
        : null;
    case "team":
      return teamRecipients(database, subscription, buyer.teamId);
  }
}

/** A team's owners and billing managers, together on one mail, greeted by the team's name. */
async function teamRecipients(
  database: Database,
  subscription: SubscriptionRow,
  teamId: string,
): Promise<{ subscription: SubscriptionRow; email: string; name: string } | null> {
  const managers = await database
    .select({ email: users.email, team: organizations.name })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(organizations, eq(organizations.id, members.organizationId))
    .where(and(eq(members.organizationId, teamId), inArray(members.role, ["owner", "billing"])))
    .orderBy(asc(members.createdAt));
  if (managers.length === 0) return null;
  return {
    subscription,
    email: managers.map((manager) => manager.email).join(", "),
    name: managers[0]!.team,
  };
}

/** The job handler: renders the message from today's data and sends it. */
export async function sendBillingMail(
  job: z.output<typeof payloadSchema>,
  database: Database = defaultDb(),
  options: SendOptions = {},
): Promise<void> {
  const send = (message: MailMessage) => sendMail(message, options);
  const row = await recipientsOf(database, job.subscriptionId);
  // The account was deleted since (or the team has nobody to manage it): nobody to write to.
  if (!row) return;
  const { subscription, email, name } = row;
  if (!isPaidPlanId(subscription.planId)) return;
  const plan = planById(subscription.planId);
  const base = env().SITE_URL;
  const to = { to: email, name };
  // A team's subscription is managed on the team's page, where its payment method is updated.
  const accountUrl = subscription.teamId
    ? `${base}/account/team/${subscription.teamId}`
    : `${base}/account/subscription`;
  const fixUrl = subscription.teamId ? `${accountUrl}#seats` : `${base}/fix-subscription`;
  // A team's documents are on its page, not in the owner's own Invoices (issue 54).
  const documents = subscription.teamId
    ? { where: "on the team's page, under Invoices", url: `${accountUrl}#invoices` }
    : { where: "in your account under Invoices", url: `${base}/invoices` };
  // A person's receipt, renewal notice and failed payment carry a signed billing link (issue 59,
  // point 2); a team's mails go to several people and lead to the team's page.
  const billingLink = async () => {
    const token = subscription.teamId
      ? null
      : await issueBillingLink(database, subscription, job.template);
    return token ? `${base}/manage/${token}` : null;
  };

  switch (job.template) {
    case "payment-received": {
      const [payment] = job.paymentId
        ? await database
            .select()
            .from(payments)
            .where(eq(payments.providerPaymentId, job.paymentId))
        : [];
      if (!payment) throw new Error(`payment ${job.paymentId} is not recorded yet`);
      const invoice = await invoiceForPayment(database, payment.providerPaymentId);
      // Seats added mid-cycle: the upfront amount pays for those seats for the rest of the period.
      const topup = subscription.teamId
        ? await seatTopupPaidBy(database, subscription.id, payment.amountPaise)
        : null;
      return send(
        paymentReceivedMessage({
          ...to,
          plan: topup
            ? `${planLabel(subscription.planId)}, ${seatsText(topup.seatsAdded)} added for the rest of the period`
            : labelOf(subscription),
          // A subscription's payments are in its currency (Razorpay charges its plan's).
          amount: { amount: payment.amountPaise, currency: subscription.currency },
          paymentId: payment.providerPaymentId,
          nextChargeAt: subscription.chargeAt,
          invoice: invoice
            ? {
                number: invoice.number,
                url: `${base}/invoices/${invoice.id}.pdf`,
                pdf: await invoicePdf(invoice, database),
              }
            : null,
          accountUrl,
          billingLink: await billingLink(),
          documentsWhere: documents.where,
        }),
      );
    }
    case "payment-failed":
      return send(
        paymentFailedMessage({
          ...to,
          plan: labelOf(subscription),
          amount: await nextCharge(subscription, database),
          fixUrl,
          billingLink: await billingLink(),
          retryAt:
            STATUS_RULES[subscription.status].dunning === "pending" ? subscription.chargeAt : null,
        }),
      );
    case "halted":
      return send(subscriptionHaltedMessage({ ...to, plan: labelOf(subscription), fixUrl }));
    case "cancelled":
      return send(
        cancellationMessage({
          ...to,
          plan: labelOf(subscription),
          endsAt: subscription.currentEnd,
          accountUrl,
          endedNow: subscription.endReason === "operator-ended",
          keeps:
            subscription.endReason === "operator-ended"
              ? await proKeptBy(subscription, database)
              : null,
        }),
      );
    case "paused":
      return send(
        pausedMessage({
          ...to,
          plan: labelOf(subscription),
          proUntil: subscription.currentEnd,
          fromUpiApp: subscription.pausedBy === "customer",
          resumesAt: subscription.resumeAt,
          accountUrl,
        }),
      );
    case "pause-ending": {
      // Only if it is still paused here to resume on that day.
      const on = subscription.resumeAt?.toISOString();
      if (!on || on !== job.resumeAt || !allows(stateOfRow(subscription), "resume")) return;
      return send(
        pauseEndingMessage({
          ...to,
          plan: labelOf(subscription),
          resumesAt: subscription.resumeAt!,
          amount: await nextCharge(subscription, database),
          accountUrl,
        }),
      );
    }
    case "pause-ended":
      return send(
        pauseEndedMessage({
          ...to,
          plan: labelOf(subscription),
          renewsAt: subscription.chargeAt ?? subscription.currentEnd,
          accountUrl,
        }),
      );
    case "resumed":
      return send(
        resumedMessage({
          ...to,
          plan: labelOf(subscription),
          renewsAt: subscription.chargeAt ?? subscription.currentEnd,
          accountUrl,
        }),
      );
    case "plan-change": {
      const [old] = subscription.replacesSubscriptionId
        ? await database
            .select()
            .from(subscriptions)
            .where(eq(subscriptions.id, subscription.replacesSubscriptionId))
        : [];
      return send(
        planChangeMessage({
          ...to,
          from: old ? labelOf(old) : "your current plan",
          to_plan: labelOf(subscription),
          startsAt: subscription.startAt,
          amount: await nextCharge(subscription, database),
          kind: old ? switchKindOf(old, subscription) : "plan",
          method: mandateWords(subscription.paymentMethod),
          accountUrl,
        }),
      );
    }
    case "switch-withdrawn": {
      // Sent for the withdrawn subscription; the plan the buyer stays on is the one it replaced.
      const [kept] = subscription.replacesSubscriptionId
        ? await database
            .select()
            .from(subscriptions)
            .where(eq(subscriptions.id, subscription.replacesSubscriptionId))
        : [];
      if (!kept) return;
      return send(
        switchWithdrawnMessage({
          ...to,
          plan: labelOf(kept),
          withdrawn: labelOf(subscription),
          kind: switchKindOf(kept, subscription),
          renewsAt: kept.cancelAtCycleEnd ? null : (kept.chargeAt ?? kept.currentEnd),
          accountUrl,
        }),
      );
    }
    case "refunded": {
      const [refund] = job.refundId
        ? await database.select().from(refunds).where(eq(refunds.providerRefundId, job.refundId))
        : [];
      if (!refund) throw new PermanentJobError(`refund ${job.refundId} is not recorded`);
      const [note] = await database
        .select(invoiceColumns)
        .from(invoices)
        .where(eq(invoices.providerRefundId, refund.providerRefundId));
      return send(
        refundedMessage({
          ...to,
          plan: labelOf(subscription),
          amount: { amount: refund.amountPaise, currency: subscription.currency },
          paymentId: refund.providerPaymentId,
          refundId: refund.providerRefundId,
          arn: refund.arn,
          ended: subscription.endReason === "refunded",
          creditNote: note
            ? {
                number: note.number,
                url: `${base}/invoices/${note.id}.pdf`,
                pdf: await invoicePdf(note, database),
              }
            : null,
          accountUrl: documents.url,
          documentsWhere: documents.where,
          team: subscription.teamId !== null,
          keeps:
            subscription.endReason === "refunded" ? await proKeptBy(subscription, database) : null,
        }),
      );
    }
    case "duplicate-cancelled": {
      const taken = await database
        .select({ amountPaise: payments.amountPaise, status: payments.status })
        .from(payments)
        .where(eq(payments.subscriptionId, subscription.id));
      const [kept] = await database
        .select({ planId: subscriptions.planId })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.userId, subscription.userId ?? ""),
            inArray(
              subscriptions.status,
              statusesWhere((rules) => rules.renews),
            ),
          ),
        );
      return send(
        duplicateCancelledMessage({
          ...to,
          plan: labelOf(subscription),
          subscriptionId: subscription.providerSubscriptionId,
          keptPlan: kept ? planLabel(kept.planId) : null,
          refund: {
            amount: taken
              .filter((payment) => payment.status === "captured" || payment.status === "refunded")
              .reduce((sum, payment) => sum + payment.amountPaise, 0),
            currency: subscription.currency,
          },
          accountUrl,
        }),
      );
    }
    case "renewal-reminder": {
      // Only if the renewal it announces is still going to happen on that day.
      const due = subscription.chargeAt?.toISOString();
      if (stateOfRow(subscription) !== "active" || due !== job.chargeAt || !subscription.chargeAt)
        return;
      return send(
        renewalReminderMessage({
          ...to,
          plan: labelOf(subscription),
          period: plan.billingCycle === "yearly" ? "year" : "month",
          amount: await nextCharge(subscription, database),
          chargeAt: subscription.chargeAt,
          accountUrl,
          billingLink: await billingLink(),
        }),
      );
    }
  }
}

/**
 * How many days before a renewal its notice goes out, or null for none (issue 34, point 2): a
 * yearly renewal a week before (a year is long enough to forget), any renewal of at least
 * `fromPaise` three days before (RBI's pre-debit notice for larger e-mandate charges). One notice
 * per renewal, the earlier one when both apply.
 */
export function renewalNoticeDays(
  plan: { billingCycle: string | null; pricePaise: number },
  fromPaise: number = site.pricing.renewalNoticeFromPaise,
): number | null {
  if (plan.billingCycle === "yearly") return 7;
  if (plan.billingCycle && plan.pricePaise >= fromPaise) return 3;
  return null;
}

/**
 * Queues the notice of a subscription's next renewal, if it gets one (`renewalNoticeDays`). Keyed
 * by the charge's date, so a subscription read again (webhooks, resyncs) never queues it twice;
 * the mail checks when it is sent that the renewal is still coming on that day.
 */
export async function scheduleRenewalReminder(
  executor: Executor,
  subscription: {
    id: string;
    planId: string;
    status: SubscriptionStatus;
    chargeAt: Date | null;
    cancelAtCycleEnd: boolean;
  },
  now: Date = new Date(),
): Promise<void> {
  if (stateOfRow(subscription) !== "active" || !subscription.chargeAt) return;
  if (!isPaidPlanId(subscription.planId)) return;
  const days = renewalNoticeDays(planById(subscription.planId));
  if (days === null) return;
  const runAt = new Date(subscription.chargeAt.getTime() - days * 86_400_000);
  if (runAt <= now) return;
  await queueBillingMail(
    executor,
    "renewal-reminder",
    subscription.id,
    subscription.chargeAt.toISOString(),
    {
      runAt,
      chargeAt: subscription.chargeAt.toISOString(),
    },
  );
}

/** Billing mail (mail lane), rendered from the data as it is when it is sent. */
export const billingMailJob = defineJob({
  name: BILLING_MAIL_JOB,
  lane: "mail",
  payload: payloadSchema,
  timeoutMs: 60_000,
  maxAttempts: 12,
  async handler(payload, { idempotencyKey }) {
    await sendBillingMail(payload, defaultDb(), { idempotencyKey });
  },
});

/** Where the Pro an account keeps comes from, in a mail's words, for each source it can have. */
const KEPT_FROM: Record<Exclude<PlanSourceKind, "free">, (team: string) => string> = {
  subscription: () => "another subscription of yours",
  trial: () => "your free trial",
  grant: () => "a grant from us",
  team: (team) => `a seat of ${team}'s subscription`,
};

/**
 * Pro a person keeps when one of their subscriptions ends at once (a full refund, an operator's
 * "cancel now"): where from, decided as the account pages decide it (planShownFor), read when
 * the mail is sent. Null for a team's subscription (nobody's own) and for an account on Free.
 *
 * The ending subscription is never the source, whatever its row says when the mail is sent: its
 * end reason is recorded at once, but its status follows Razorpay's cancellation webhook, which
 * may not have been processed yet (it then still reads as running, and the mail said "another
 * subscription of yours" for a trial's Pro).
 */
async function proKeptBy(
  ending: Pick<SubscriptionRow, "userId" | "providerSubscriptionId">,
  database: Database,
): Promise<ProKept | null> {
  const userId = ending.userId;
  if (!userId) return null;
  const now = new Date();
  const [entitlement, read, trial] = await Promise.all([
    entitlementFor(userId, { database, now }),
    billingOverview(personBuyer(userId), database),
    trialOf(userId, database),
  ]);
  const overview =
    read.subscription?.providerSubscriptionId === ending.providerSubscriptionId
      ? { ...read, subscription: null }
      : read;
  const shown = planShownFor({ entitlement, overview, trialEndsAt: trial?.endsAt ?? null, now });
  if (shown.kind === "free") return null;
  return {
    from: KEPT_FROM[shown.kind](entitlement.team?.name ?? ""),
    until: entitlement.expires_at ? new Date(entitlement.expires_at) : null,
  };
}
