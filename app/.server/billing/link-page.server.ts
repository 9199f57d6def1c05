/**
 * What `/manage/{token}` shows and does (issue 59, point 2; decision 0072): one subscription's
 * billing, for whoever holds the link a billing mail carried, and only the billing commands its
 * state allows. The route stays thin; the link's rules are in billing-links.server.ts.
 */
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { isPaidPlanId } from "~/lib/plans";
import { allows, STATE_RULES } from "~/lib/subscription-state";
import { db as defaultDb } from "../db";
import { AppError } from "../http/errors";
import {
  type BillingLinkAction,
  logLinkUse,
  markLinkUsedForPayment,
  type OpenedLink,
} from "./billing-links.server";
import { personBuyer } from "./buyer";
import {
  cancelAtPeriodEnd,
  pauseSubscription,
  resumeSubscription,
  startPlanSwitch,
} from "./manage.server";
import { billingOverview } from "./overview.server";
import { pauseResumeRefusal } from "./pause-limit.server";

type Opened = Extract<OpenedLink, { ok: true }>;

/** Why a link does not open, in words, and the status it is answered with. */
export const LINK_REFUSALS = {
  unknown: {
    status: 404,
    message: "This link is not valid. Sign in to manage your subscription.",
  },
  expired: {
    status: 410,
    message:
      "This link has expired: billing links work for a few days after the mail. Sign in to manage your subscription.",
  },
  used: {
    status: 410,
    message:
      "This link was used for a payment, so it works no more. Sign in to manage your subscription.",
  },
} as const;

/** The page: the subscription in words and the commands its state allows. */
export async function billingLinkPage(opened: Opened) {
  const { subscription: row, user } = opened;
  const overview = await billingOverview(personBuyer(user.id));
  const sub = overview.subscription;
  // The link is for one subscription: one replaced or gone since shows no commands.
  const same = sub?.providerSubscriptionId === row.providerSubscriptionId ? sub : null;
  const can = (command: Parameters<typeof allows>[1]) => !!same && allows(same.state, command);
  return {
    email: user.email,
    plan: same?.plan ?? null,
    status: same?.statusText ?? null,
    nextCharge:
      same?.nextCharge && same.nextChargeAt
        ? `${formatPrice(same.nextCharge)} on ${formatDate(same.nextChargeAt)}`
        : null,
    paymentMethod: same?.paymentMethod ?? null,
    planId: same?.planId ?? null,
    commands: {
      pay: can("fix-payment") && !!row.shortUrl,
      changeMethod: can("switch") && !overview.switchTo,
      pause: can("pause") && !overview.switchTo,
      resume: can("resume"),
      cancel: can("cancel") && !!same && !!STATE_RULES[same.state].cancel,
    },
    cancelWords: same ? (STATE_RULES[same.state].cancel?.words ?? null) : null,
  };
}

export type LinkResult = { redirect: string } | { message: string };

/** One command through the link: done and logged, or refused with the reason. */
export async function runLinkAction(
  opened: Opened,
  action: BillingLinkAction,
  input: { resumeAfter?: number },
): Promise<LinkResult> {
  const page = await billingLinkPage(opened);
  const { user, subscription: row } = opened;
  const database = defaultDb();
  const refuse = (message: string): never => {
    throw new AppError("conflict", message);
  };
  switch (action) {
    case "pay": {
      if (!page.commands.pay || !row.shortUrl)
        refuse("Nothing is due on this subscription: no charge is missed.");
      // Razorpay's page takes the missed charge; the link has done its one payment.
      await markLinkUsedForPayment(database, opened.link.id);
      await logLinkUse(database, opened, "pay");
      return { redirect: row.shortUrl! };
    }
    case "change-method": {
      const planId = page.planId;
      if (!page.commands.changeMethod || !isPaidPlanId(planId))
        return refuse("The payment method of this subscription cannot be changed now.");
      const { next } = await startPlanSwitch(user, planId, { methodChange: true });
      if (!next.shortUrl) throw new Error("Razorpay gave no page to authorise the new method");
      await markLinkUsedForPayment(database, opened.link.id);
      await logLinkUse(database, opened, "change-method", {
        newSubscription: next.providerSubscriptionId,
      });
      return { redirect: next.shortUrl };
    }
    case "pause": {
      if (!page.commands.pause) refuse("This subscription cannot be paused now.");
      const limited = await pauseResumeRefusal(user.id);
      if (limited) throw new AppError("rate_limited", limited);
      const paused = await pauseSubscription(user.id, { resumeAfterCycles: input.resumeAfter });
      await logLinkUse(database, opened, "pause", {
        resumeAt: paused.resumeAt?.toISOString() ?? null,
      });
      return {
        message: paused.resumeAt
          ? `Paused: nothing is charged until it resumes by itself on ${formatDate(paused.resumeAt.toISOString())}; we write three days before.`
          : "Paused: nothing is charged until you resume it.",
      };
    }
    case "resume": {
      if (!page.commands.resume) refuse("There is no pause to end.");
      const limited = await pauseResumeRefusal(user.id);
      if (limited) throw new AppError("rate_limited", limited);
      const resumed = await resumeSubscription(user.id);
      await logLinkUse(database, opened, "resume");
      return {
        message: resumed.chargeAt
          ? `Resumed: the next charge is on ${formatDate(resumed.chargeAt.toISOString())}.`
          : "Resumed: your subscription runs again.",
      };
    }
    case "cancel": {
      if (!page.commands.cancel) refuse("There is nothing to cancel on this subscription.");
      const cancelled = await cancelAtPeriodEnd(personBuyer(user.id), null);
      await logLinkUse(database, opened, "cancel");
      return {
        message:
          cancelled.currentEnd && cancelled.cancelAtCycleEnd
            ? `Cancelled. You keep Pro until ${formatDate(cancelled.currentEnd.toISOString())}; nothing more will be charged.`
            : "Cancelled. Nothing more will be charged.",
      };
    }
  }
}
