import type { FieldErrors } from "~/lib/auth-forms";

/** What every section of /admin-fix-subscription gets besides its own data. */
export interface SectionProps {
  customerId: string;
  errors: FieldErrors;
}

/**
 * What happens to a subscription after a refund that does not end it by itself (issue 33, point
 * 7): the refund's confirmation asks, and the action refuses a refund without the answer.
 */
export const AFTER_REFUND = ["keep", "period-end", "now"] as const;
export type AfterRefund = (typeof AFTER_REFUND)[number];

export const AFTER_REFUND_LABELS: Record<AfterRefund, string> = {
  keep: "keeps running: the customer keeps Pro and is charged as usual",
  "period-end": "ends with the paid period: Pro until then, nothing more charged",
  now: "ends now: Pro stops at once, nothing more charged",
};
