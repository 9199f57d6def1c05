/** The billing messages: payment received or failed, halted, cancelled, plan change, reminder. */
import { site } from "~/config/site";
import { formatDate } from "~/lib/dates";
import { formatPrice, type Money } from "~/lib/money";
import { type TrialEndReason, trialEndedWords } from "~/lib/trials";
import type { SwitchKind } from "~/lib/plan-switch";
import { BILLING_LINK_DAYS } from "~/lib/billing-link";
import type { MailMessage } from "./mailer.server";
import { renderTo } from "./templates";

/** " (GST included)" after a rupee amount; nothing after one charged abroad (an export). */
/**
 * The line a billing mail carries for its signed link (issue 59, point 2): what it opens, what it
 * cannot do, and for how long.
 */
function billingLinkNote(url: string | null | undefined): string | undefined {
  return url
    ? `Manage this subscription without signing in, for ${BILLING_LINK_DAYS} days: pay, change how you pay, pause, resume or cancel (nothing else on your account): ${url}`
    : undefined;
}

function gstIncluded(amount: Money): string {
  return amount.currency === "INR" ? " (GST included)" : "";
}

/** As a mail names the document: "GST tax invoice" in India, "export invoice" abroad. */
function documentOf(amount: Money): string {
  return amount.currency === "INR" ? "GST tax invoice" : "export invoice";
}

/** A refund's document, named the same way. */
function creditOf(amount: Money): string {
  return amount.currency === "INR" ? "GST credit note" : "credit note";
}

/** The document a charge is invoiced with: a GST tax invoice, or an export invoice abroad. */
function invoiceKind(amount: Money): string {
  return amount.currency === "INR" ? "tax invoice" : "export invoice";
}

interface Recipient {
  to: string;
  name: string;
}

export function paymentReceivedMessage(
  input: Recipient & {
    plan: string;
    amount: Money;
    paymentId: string;
    nextChargeAt: Date | null;
    /** The GST tax invoice of this payment: linked, and attached as a PDF. */
    invoice: { number: string; url: string; pdf: Buffer } | null;
    accountUrl: string;
    billingLink?: string | null;
    /** Where its documents are kept: the account's Invoices, or a team's page (`documentsPlace`). */
    documentsWhere: string;
  },
): MailMessage {
  const message = renderTo(input, {
    subject: `Payment received: ${formatPrice(input.amount)} for ${site.product.name} ${input.plan}`,
    paragraphs: [
      `We received your payment of ${formatPrice(input.amount)}${gstIncluded(input.amount)} for ${input.plan}. Payment reference: ${input.paymentId}.`,
      input.nextChargeAt
        ? `Your next charge is on ${formatDate(input.nextChargeAt.toISOString())}.`
        : "Thank you for your subscription.",
      input.invoice
        ? `Your ${documentOf(input.amount)} ${input.invoice.number} is attached, and always ${input.documentsWhere}.`
        : `Your ${documentOf(input.amount)} is ${input.documentsWhere}.`,
    ],
    action: input.invoice
      ? { label: `Download invoice ${input.invoice.number}`, url: input.invoice.url }
      : { label: "View your subscription", url: input.accountUrl },
    footnote: billingLinkNote(input.billingLink),
  });
  if (!input.invoice) return message;
  return {
    ...message,
    attachments: [
      {
        filename: `${input.invoice.number.replaceAll("/", "-")}.pdf`,
        content: input.invoice.pdf,
        contentType: "application/pdf",
      },
    ],
  };
}

export function paymentFailedMessage(
  input: Recipient & {
    plan: string;
    amount: Money;
    fixUrl: string;
    billingLink?: string | null;
    /** Razorpay's next try (its `charge_at` while pending). */
    retryAt?: Date | null;
  },
): MailMessage {
  return renderTo(input, {
    subject: `Action needed: your ${site.product.name} payment failed`,
    paragraphs: [
      `We could not charge ${formatPrice(input.amount)} for ${input.plan}. ${input.retryAt ? `Razorpay tries again on ${formatDate(input.retryAt.toISOString())}, then daily while it fails` : "Razorpay will try again over the next days"}, and you keep Pro meanwhile.`,
      "If your card expired or your UPI mandate was revoked, update the payment method now so that nothing is interrupted.",
    ],
    // The signed link pays the missed charge without signing in; the account's page otherwise.
    action: { label: "Fix my subscription", url: input.billingLink ?? input.fixUrl },
    footnote: billingLinkNote(input.billingLink),
  });
}

export function subscriptionHaltedMessage(
  input: Recipient & { plan: string; fixUrl: string },
): MailMessage {
  return renderTo(input, {
    subject: `Your ${site.product.name} Pro subscription is paused for non-payment`,
    paragraphs: [
      `The last payments for ${input.plan} failed, so Razorpay stopped retrying and your account is back on the Free plan.`,
      "Authorise a working payment method to restart Pro: you are charged for the current period and everything comes back at once.",
    ],
    action: { label: "Restart Pro", url: input.fixUrl },
  });
}

/**
 * Pro an account keeps after its subscription ended (issue 54: the mails said "Free" while the
 * site kept Pro until a trial's end): where from, and until when.
 */
export interface ProKept {
  /** "your free trial", "a seat of Kaveri Robotics's subscription", "a grant on your account". */
  from: string;
  until: Date | null;
}

const keptWords = (keeps: ProKept) =>
  keeps.until
    ? `Your account keeps Pro from ${keeps.from} until ${formatDate(keeps.until.toISOString())}, then moves to Free unless you choose a plan.`
    : `Your account keeps Pro from ${keeps.from}.`;

export function cancellationMessage(
  input: Recipient & {
    plan: string;
    endsAt: Date | null;
    accountUrl: string;
    /** Cancelled by us with immediate effect (an operator's "cancel now"): Pro has ended. */
    endedNow?: boolean;
    /** Pro the account keeps from elsewhere (a trial, a grant, a team's seat), if any. */
    keeps?: ProKept | null;
  },
): MailMessage {
  const until = input.endsAt ? formatDate(input.endsAt.toISOString()) : null;
  if (input.endedNow)
    return renderTo(input, {
      subject: `Your ${site.product.name} subscription has ended`,
      paragraphs: [
        input.keeps
          ? `We have cancelled your ${input.plan} subscription with immediate effect, and nothing more will be charged. ${keptWords(input.keeps)}`
          : `We have cancelled your ${input.plan} subscription with immediate effect: your account is on Free from now, and nothing more will be charged.`,
        `If you did not expect this, write to ${site.company.supportEmail} and we will look into it.`,
      ],
      action: { label: "View your subscription", url: input.accountUrl },
    });
  return renderTo(input, {
    subject: `Your ${site.product.name} subscription is cancelled`,
    paragraphs: [
      until
        ? `Your ${input.plan} subscription is cancelled. You keep Pro until ${until}; nothing more will be charged.`
        : `Your ${input.plan} subscription is cancelled; nothing more will be charged.`,
      "Changed your mind? Until that date you can undo it from Account → Subscription.",
    ],
    action: { label: "View your subscription", url: input.accountUrl },
  });
}

export function resumedMessage(
  input: Recipient & { plan: string; renewsAt: Date | null; accountUrl: string },
): MailMessage {
  const on = input.renewsAt ? formatDate(input.renewsAt.toISOString()) : null;
  return renderTo(input, {
    subject: `Your ${site.product.name} subscription continues`,
    paragraphs: [
      on
        ? `You undid the cancellation: your ${input.plan} subscription continues and renews on ${on}, as before.`
        : `You undid the cancellation: your ${input.plan} subscription continues, as before.`,
    ],
    action: { label: "View your subscription", url: input.accountUrl },
  });
}

export function pausedMessage(
  input: Recipient & {
    plan: string;
    /** The end of the period already paid: Pro until then. */
    proUntil: Date | null;
    /** The customer paused it in their UPI app: only they can resume it, there. */
    fromUpiApp: boolean;
    /** A pause with an end: the day it resumes by itself. */
    resumesAt?: Date | null;
    accountUrl: string;
  },
): MailMessage {
  const until = input.proUntil ? formatDate(input.proUntil.toISOString()) : null;
  const resumes = input.resumesAt ? formatDate(input.resumesAt.toISOString()) : null;
  return renderTo(input, {
    subject: `Your ${site.product.name} ${input.plan} is paused`,
    paragraphs: [
      input.fromUpiApp
        ? `You paused the AutoPay mandate for ${input.plan} in your UPI app, so nothing will be charged while it stays paused.`
        : `Your ${input.plan} subscription is paused: nothing will be charged while it stays paused.`,
      until
        ? `You keep Pro until ${until}, the end of the period already paid; after that your account is on the Free plan (one device) until you resume.`
        : "Your account is on the Free plan (one device) until you resume.",
      input.fromUpiApp
        ? "Only you can resume it, in the same UPI app (its AutoPay mandates). To stop for good instead, cancel from Account → Subscription."
        : resumes
          ? `It resumes by itself on ${resumes}, and the next charge is taken then; we write a few days before. To resume earlier, or to cancel instead, go to Account → Subscription.`
          : "Resume any time from Account → Subscription: the next charge is then at the end of the period already paid, or at once if it has ended.",
    ],
    action: { label: "View your subscription", url: input.accountUrl },
  });
}

/** A few days before a pause with an end resumes by itself, and charges (issue 59). */
export function pauseEndingMessage(
  input: Recipient & { plan: string; resumesAt: Date; amount: Money; accountUrl: string },
): MailMessage {
  const on = formatDate(input.resumesAt.toISOString());
  return renderTo(input, {
    subject: `Your ${site.product.name} ${input.plan} resumes on ${on}`,
    paragraphs: [
      `Your pause of ${input.plan} ends on ${on}. The subscription then runs again and we charge ${formatPrice(input.amount)}${gstIncluded(input.amount)} for the next period, and Pro is back on your account.`,
      "Nothing to do if you want to continue. To stay off it, cancel before that date from Account → Subscription; nothing is charged then.",
    ],
    action: { label: "Manage your subscription", url: input.accountUrl },
  });
}

export function pauseEndedMessage(
  input: Recipient & { plan: string; renewsAt: Date | null; accountUrl: string },
): MailMessage {
  const on = input.renewsAt ? formatDate(input.renewsAt.toISOString()) : null;
  return renderTo(input, {
    subject: `Your ${site.product.name} ${input.plan} is running again`,
    paragraphs: [
      on
        ? `You resumed ${input.plan}: it is running again, and the next charge is on ${on}.`
        : `You resumed ${input.plan}: it is running again.`,
    ],
    action: { label: "View your subscription", url: input.accountUrl },
  });
}

export function planChangeMessage(
  input: Recipient & {
    from: string;
    to_plan: string;
    startsAt: Date | null;
    amount: Money;
    /** What the switch changes (app/lib/plan-switch.ts), and how the new one pays. */
    kind: SwitchKind;
    method: string | null;
    accountUrl: string;
  },
): MailMessage {
  const when = input.startsAt
    ? formatDate(input.startsAt.toISOString())
    : "the end of your current period";
  const action = { label: "View your subscription", url: input.accountUrl };
  switch (input.kind) {
    case "plan":
      return renderTo(input, {
        subject: `Plan change scheduled: ${input.to_plan} from ${when}`,
        paragraphs: [
          `You switch from ${input.from} to ${input.to_plan} on ${when}. The first charge of ${formatPrice(input.amount)} is made then; your current plan runs until that day and is not renewed.`,
        ],
        action,
      });
    case "price":
      return renderTo(input, {
        subject: `Your new price for ${site.product.name} ${input.to_plan} from ${when}`,
        paragraphs: [
          `From ${when}, ${input.to_plan} renews at the coupon's price: the next charge is ${formatPrice(input.amount)}${gstIncluded(input.amount)}. Your current subscription runs until that day and is not renewed.`,
        ],
        action,
      });
    case "method":
      return renderTo(input, {
        subject: `New payment method for ${site.product.name} ${input.to_plan} from ${when}`,
        paragraphs: [
          `From ${when}, ${input.to_plan} is paid with ${input.method ?? "the payment method you just authorised"}: the next charge, ${formatPrice(input.amount)}${gstIncluded(input.amount)}, is taken from it that day.`,
          "The payment method you paid with so far is charged nothing more: its mandate ends with the current period. Pro carries on without a break.",
        ],
        action,
      });
  }
}

export function switchWithdrawnMessage(
  input: Recipient & {
    plan: string;
    withdrawn: string;
    kind: SwitchKind;
    renewsAt: Date | null;
    accountUrl: string;
  },
): MailMessage {
  const on = input.renewsAt ? formatDate(input.renewsAt.toISOString()) : null;
  return renderTo(input, {
    subject:
      input.kind === "method"
        ? `Payment method change withdrawn: ${site.product.name} ${input.plan} is paid as before`
        : `Plan change withdrawn: you stay on ${site.product.name} ${input.plan}`,
    paragraphs: [
      input.kind === "method"
        ? `You chose to keep paying as now: the new payment method is withdrawn and nothing will be charged to it.`
        : `You chose to stay on ${input.plan}: the switch to ${input.withdrawn} is withdrawn and nothing will be charged for it.`,
      on
        ? `Your ${input.plan} subscription renews on ${on}, as before.`
        : `Your ${input.plan} subscription continues, as before.`,
    ],
    action: { label: "View your subscription", url: input.accountUrl },
  });
}

export function refundedMessage(
  input: Recipient & {
    plan: string;
    amount: Money;
    paymentId: string;
    /** Razorpay's refund id, and the bank's reference (ARN) once Razorpay has it. */
    refundId: string;
    arn: string | null;
    /** The refund left the period unpaid, so the subscription ended with it (the refund policy). */
    ended: boolean;
    /** The GST credit note of this refund: linked, and attached as a PDF. */
    creditNote: { number: string; url: string; pdf: Buffer } | null;
    accountUrl: string;
    documentsWhere: string;
    /** A team's seats, not the person's own plan. */
    team: boolean;
    /** Pro the account keeps from elsewhere (a trial, a grant, a team's seat), if any. */
    keeps?: ProKept | null;
  },
): MailMessage {
  const message = renderTo(input, {
    subject: `Refund of ${formatPrice(input.amount)} for ${site.product.name} ${input.plan}`,
    paragraphs: [
      `We refunded ${formatPrice(input.amount)} of your payment ${input.paymentId} for ${input.plan}. Banks usually show it within 5 to 7 working days.`,
      input.arn
        ? `To trace it with your bank, quote the bank reference (ARN) ${input.arn}; our refund reference is ${input.refundId}.`
        : `Our refund reference is ${input.refundId}; the bank reference (ARN) is shown ${input.documentsWhere} once Razorpay has it.`,
      ...(input.ended
        ? [
            input.team
              ? `With this refund the team's ${input.plan} subscription has ended and its seats give no Pro. Nothing more will be charged.`
              : input.keeps
                ? `With this refund your ${input.plan} subscription has ended, and nothing more will be charged. ${keptWords(input.keeps)}`
                : `With this refund your ${input.plan} subscription has ended and your account is on the Free plan (one device). Nothing more will be charged.`,
          ]
        : []),
      input.creditNote
        ? `The ${creditOf(input.amount)} ${input.creditNote.number} is attached, and always ${input.documentsWhere}.`
        : `The ${creditOf(input.amount)} is ${input.documentsWhere}.`,
    ],
    action: input.creditNote
      ? { label: `Download credit note ${input.creditNote.number}`, url: input.creditNote.url }
      : { label: "View your invoices", url: input.accountUrl },
  });
  if (!input.creditNote) return message;
  return {
    ...message,
    attachments: [
      {
        filename: `${input.creditNote.number.replaceAll("/", "-")}.pdf`,
        content: input.creditNote.pdf,
        contentType: "application/pdf",
      },
    ],
  };
}

export function duplicateCancelledMessage(
  input: Recipient & {
    plan: string;
    subscriptionId: string;
    keptPlan: string | null;
    refund: Money;
    accountUrl: string;
  },
): MailMessage {
  return renderTo(input, {
    subject: `We cancelled a second ${site.product.name} subscription`,
    paragraphs: [
      `Your account already had ${input.keptPlan ?? "a subscription"}, so the second ${input.plan} subscription (${input.subscriptionId}) is cancelled and will not charge you again. Your Pro continues as before.`,
      input.refund.amount > 0
        ? `What it charged, ${formatPrice(input.refund)}, is refunded in full; a credit note follows in a separate mail.`
        : "Nothing was charged for it.",
    ],
    action: { label: "View your subscription", url: input.accountUrl },
  });
}

export function renewalReminderMessage(
  input: Recipient & {
    plan: string;
    period: "month" | "year";
    amount: Money;
    chargeAt: Date;
    accountUrl: string;
    billingLink?: string | null;
  },
): MailMessage {
  return renderTo(input, {
    subject: `Your ${site.product.name} ${input.plan} renews on ${formatDate(input.chargeAt.toISOString())}`,
    paragraphs: [
      `On ${formatDate(input.chargeAt.toISOString())} we will charge ${formatPrice(input.amount)}${gstIncluded(input.amount)} to renew ${input.plan} for another ${input.period}.`,
      "Nothing to do if you want to continue. To stop the renewal, cancel or pause it before that date from Account → Subscription.",
    ],
    action: { label: "Manage your subscription", url: input.billingLink ?? input.accountUrl },
    footnote: billingLinkNote(input.billingLink),
  });
}

export function trialEndsSoonMessage(
  input: Recipient & { endsAt: Date; daysLeft: number; priceLabel: string; pricingUrl: string },
): MailMessage {
  const end = formatDate(input.endsAt.toISOString());
  return renderTo(input, {
    subject: `Your ${site.product.name} Pro trial ends on ${end}`,
    paragraphs: [
      `Your free Pro trial ends on ${end}, in ${input.daysLeft === 1 ? "1 day" : `${input.daysLeft} days`}. Nothing will be charged: we never asked for a card, and after that day your account moves to Free (one device) by itself.`,
      `To keep Pro, choose a plan before then (${input.priceLabel}).`,
    ],
    action: { label: "Choose a plan", url: input.pricingUrl },
  });
}

/**
 * Before the end of a trial whose plan starts when it ends (issue 36, point 4): the notice that
 * a free trial turns paid, with the day and the amount, and how to stop it at no cost.
 */
export function trialConvertsMessage(
  input: Recipient & {
    endsAt: Date;
    daysLeft: number;
    plan: string;
    amount: Money;
    chargeAt: Date;
    subscriptionUrl: string;
  },
): MailMessage {
  const end = formatDate(input.endsAt.toISOString());
  const charge = formatDate(input.chargeAt.toISOString());
  return renderTo(input, {
    subject: `Your ${site.product.name} Pro trial ends on ${end}: ${input.plan} starts then`,
    paragraphs: [
      `Your free Pro trial ends on ${end}, in ${input.daysLeft === 1 ? "1 day" : `${input.daysLeft} days`}. As you chose, ${input.plan} starts then: ${formatPrice(input.amount)}${gstIncluded(input.amount)} will be charged on ${charge} to the payment method you authorised, and a ${invoiceKind(input.amount)} follows.`,
      `To not start it, cancel it before ${charge} on your subscription page: nothing is charged then, and your account moves to Free when the trial ends.`,
    ],
    action: { label: "Your subscription", url: input.subscriptionUrl },
  });
}

export function trialEndedMessage(
  input: Recipient & { endedAt: Date; reason: TrialEndReason | null; pricingUrl: string },
): MailMessage {
  return renderTo(input, {
    subject: `Your ${site.product.name} Pro trial has ended`,
    paragraphs: [
      `${trialEndedWords(input.endedAt, input.reason)} Nothing was charged, and your account is on Free now: one device, the Free features.`,
      "Whenever you want Pro again, choose a plan.",
    ],
    action: { label: "See the plans", url: input.pricingUrl },
  });
}

/** A referrer's reward (issue 36, point 9): the days of Pro their link earned, and until when. */
export function referralRewardMessage(
  input: Recipient & { days: number; from: Date; until: Date; accountUrl: string },
): MailMessage {
  const from = formatDate(input.from.toISOString());
  const until = formatDate(input.until.toISOString());
  return renderTo(input, {
    subject: `You earned ${input.days} days of ${site.product.name} Pro`,
    paragraphs: [
      `Someone you invited with your referral link is now a paying customer, past the refund window. Thank you: ${input.days} days of Pro are yours, from ${from} to ${until}.`,
      "Nothing to do: Pro is on your account for those days, on the site and in the app. If you pay for Pro too, your subscription renews as usual, and these days give you Pro over those dates even if you cancel it.",
    ],
    action: { label: "Your account", url: input.accountUrl },
  });
}
