/**
 * A trial's mails (issue 36, point 3): 3 days and 1 day before it ends, at 9:00 India time on
 * those India dates, and when it has ended. Queued with the trial, each once (its dedupe key
 * names the trial, the mail and the end it was queued for); each checks at send time that it is
 * still true: the trial was not moved (an extension queues its own), and the person has not
 * bought Pro meanwhile.
 */
import { statusesWhere } from "~/lib/subscription-state";
import { nextCharge } from "../billing/charge-amount.server";
import { and, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { addIstDays, istDay, istDayStart } from "~/lib/india-time";
import { isPaidPlanId, paidPlanFor, planById, planLabel, planPriceLabel } from "~/lib/plans";
import { db as defaultDb, type Executor } from "../db";
import { subscriptions, type TrialRow, trials, user as users } from "../db/schema";
import { env } from "../env";
import { defineJob, enqueue } from "../jobs/define";
import {
  trialConvertsMessage,
  trialEndedMessage,
  trialEndsSoonMessage,
} from "../mail/billing-templates";
import { type SendOptions, sendMail } from "../mail/mailer.server";

export const TRIAL_MAIL_JOB = "mail.trial";
const TEMPLATES = ["ends-in-3-days", "ends-in-1-day", "ended"] as const;
type TrialMail = (typeof TEMPLATES)[number];

const REMINDER_HOUR_IST = 9;

/** When a trial's mail goes out: 9:00 IST on the India date 3 or 1 days before its end; the end. */
export function trialMailAt(template: TrialMail, endsAt: Date): Date {
  if (template === "ended") return endsAt;
  const day = addIstDays(istDay(endsAt), template === "ends-in-3-days" ? -3 : -1);
  return new Date(istDayStart(day)!.getTime() + REMINDER_HOUR_IST * 3_600_000);
}

/** Queues a trial's mails (a reminder whose moment has passed is not sent late). */
export async function queueTrialMails(
  executor: Executor,
  trial: Pick<TrialRow, "id" | "endsAt">,
  now: Date,
): Promise<void> {
  for (const template of TEMPLATES) {
    const runAt = trialMailAt(template, trial.endsAt);
    if (template !== "ended" && runAt <= now) continue;
    await enqueue(
      executor,
      trialMailJob,
      { template, trialId: trial.id, endsAt: trial.endsAt.toISOString() },
      {
        dedupeKey: `${TRIAL_MAIL_JOB}:${template}:${trial.id}:${trial.endsAt.toISOString()}`,
        runAt,
      },
    );
  }
}

const payloadSchema = z.object({
  template: z.enum(TEMPLATES),
  trialId: z.uuid(),
  /** The trial's end when the mail was queued: a trial moved since sends nothing for this one. */
  endsAt: z.iso.datetime(),
});

/**
 * Statuses in which a subscription means the person has bought Pro: no trial mail then. Not
 * "created" (a checkout opened and never paid is not a purchase), and not "authenticated": a plan
 * set to start when the trial ends (issue 36, point 4), whose reminders say what will be charged.
 */
const BOUGHT = statusesWhere((rules) => rules.paying);

export async function sendTrialMail(
  job: z.output<typeof payloadSchema>,
  database: Executor = defaultDb(),
  options: SendOptions = {},
): Promise<void> {
  const [row] = await database
    .select({ trial: trials, email: users.email, name: users.name })
    .from(trials)
    .innerJoin(users, eq(users.id, trials.userId))
    .where(eq(trials.id, job.trialId));
  // The account was deleted, or the trial moved: nothing to say for this mail.
  if (!row || row.trial.endsAt.toISOString() !== job.endsAt) return;
  const [bought] = await database
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, row.trial.userId!), inArray(subscriptions.status, BOUGHT)))
    .limit(1);
  if (bought) return;
  const to = { to: row.email, name: row.name };
  const [scheduled] = await database
    .select({
      planId: subscriptions.planId,
      chargeAt: subscriptions.chargeAt,
      couponId: subscriptions.couponId,
      paidCount: subscriptions.paidCount,
    })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, row.trial.userId!),
        inArray(
          subscriptions.status,
          statusesWhere((rules) => rules.awaitsFirstCharge),
        ),
      ),
    )
    .limit(1);
  if (scheduled) {
    // Its first charge has its own mails (the receipt, or a failure): nothing to add at the end.
    if (job.template === "ended" || !isPaidPlanId(scheduled.planId)) return;
    const plan = planById(scheduled.planId);
    return sendMail(
      trialConvertsMessage({
        ...to,
        endsAt: row.trial.endsAt,
        daysLeft: job.template === "ends-in-3-days" ? 3 : 1,
        plan: planLabel(plan),
        amount: await nextCharge(scheduled, database),
        chargeAt: scheduled.chargeAt ?? row.trial.endsAt,
        subscriptionUrl: `${env().SITE_URL}/account/subscription`,
      }),
      options,
    );
  }
  const pricingUrl = `${env().SITE_URL}/pricing`;
  if (job.template === "ended")
    return sendMail(
      trialEndedMessage({
        ...to,
        endedAt: row.trial.endsAt,
        reason: row.trial.endReason,
        pricingUrl,
      }),
      options,
    );
  const monthly = paidPlanFor("monthly");
  const yearly = paidPlanFor("yearly");
  return sendMail(
    trialEndsSoonMessage({
      ...to,
      endsAt: row.trial.endsAt,
      // The India dates' difference the mail was queued for, whatever the hour it is read.
      daysLeft: job.template === "ends-in-3-days" ? 3 : 1,
      priceLabel: `${planPriceLabel(monthly)} or ${planPriceLabel(yearly)}`,
      pricingUrl,
    }),
    options,
  );
}

export const trialMailJob = defineJob({
  name: TRIAL_MAIL_JOB,
  lane: "mail",
  payload: payloadSchema,
  timeoutMs: 60_000,
  maxAttempts: 12,
  async handler(payload, { idempotencyKey }) {
    await sendTrialMail(payload, defaultDb(), { idempotencyKey });
  },
});
