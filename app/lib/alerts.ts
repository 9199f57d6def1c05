/**
 * The operator's alerts (issue 33, point 3): what can reach an admin by mail, in their words.
 * Each admin chooses the kinds on /admin/settings, and whether they come at once or in one daily
 * digest. Browser-safe: the settings page lists these.
 */
export const ALERT_KINDS = [
  "ticket-new",
  "ticket-overdue",
  "payment-failed",
  "subscription-halted",
  "refund",
  "dispute",
  "job-dead",
  "lane-stuck",
  "backup-failed",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  "ticket-new": "A customer opens a support ticket",
  "ticket-overdue": "A ticket has had no reply for 48 hours",
  "payment-failed": "A renewal payment fails (each of Razorpay's retries)",
  "subscription-halted": "A subscription halts: Razorpay's retries ran out",
  refund: "A refund is made",
  dispute: "A customer's bank disputes a payment (a chargeback), and when it is won or lost",
  "job-dead": "A background job fails for good (dead)",
  "lane-stuck": "A job lane is stuck (its oldest due job waits too long)",
  "backup-failed": "A backup fails",
};

export const ALERT_DELIVERIES = ["now", "digest"] as const;
export type AlertDelivery = (typeof ALERT_DELIVERIES)[number];

export const ALERT_DELIVERY_LABELS: Record<AlertDelivery, string> = {
  now: "One mail per event, at once",
  digest: "One digest a day, at 9:00 am India time",
};

/** The digest's hour, India time. */
export const DIGEST_HOUR_IST = 9;
