/**
 * What /account/subscription says on arrival from another page (`?notice=`): checkout finding a
 * subscription already there, or the cancellation step's answer (issue 59). Each is said only
 * when the subscription is in the state it describes, so a link with a notice never claims a
 * change that did not happen.
 */
import type { SubscriptionSummary } from "~/.server/billing/overview.server";
import { FormMessage } from "~/components/forms";
import { formatDate } from "~/lib/dates";
import { STATUS_RULES } from "~/lib/subscription-state";

export function noticeText(
  notice: string | null,
  sub: Pick<
    SubscriptionSummary,
    "status" | "state" | "cancelAtCycleEnd" | "currentEnd" | "resumeAt"
  > | null,
): string | null {
  switch (notice) {
    case "already-subscribed":
      return "You already have a subscription: manage it here.";
    case "cancelled":
      if (!sub || !(sub.cancelAtCycleEnd || STATUS_RULES[sub.status].final)) return null;
      return sub.cancelAtCycleEnd && sub.currentEnd
        ? `Cancelled. You keep Pro until ${formatDate(sub.currentEnd)}; nothing more will be charged.`
        : "Cancelled. Nothing more will be charged.";
    case "paused":
      if (!sub?.resumeAt) return null;
      return `Paused: nothing is charged until it resumes by itself on ${formatDate(sub.resumeAt)}.${sub.currentEnd && new Date(sub.currentEnd) > new Date() ? ` You keep Pro until ${formatDate(sub.currentEnd)}.` : ""}`;
    default:
      return null;
  }
}

export function SubscriptionNotice({
  notice,
  subscription,
}: {
  notice: string | null;
  subscription: Parameters<typeof noticeText>[1];
}) {
  const text = noticeText(notice, subscription);
  return text ? <FormMessage tone="success" message={text} /> : null;
}
