/**
 * The kinds of entry on the operator's customer timeline (issue 33, point 5) and the filter in
 * the page's address (`?show=payments&show=mail`; none: everything). Shared by the server that
 * builds the timeline and the page that offers the filter.
 */
export const TIMELINE_KINDS = [
  "billing",
  "payments",
  "documents",
  "support",
  "mail",
  "account",
  "audit",
  "analytics",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TIMELINE_KIND_LABELS: Record<TimelineKind, string> = {
  billing: "Subscriptions and Razorpay events",
  payments: "Payments and refunds",
  documents: "Invoices and credit notes",
  support: "Tickets",
  mail: "Mails sent",
  account: "Account and devices",
  audit: "Admin actions",
  analytics: "Site analytics",
};

/** At most this many entries are shown, newest first; the page says when there are more. */
export const TIMELINE_LIMIT = 150;

export interface TimelineEntry {
  /** ISO time. */
  at: string;
  kind: TimelineKind;
  title: string;
  detail: string;
  /** Something went wrong (a failed payment, a mail that did not leave, a site error). */
  problem: boolean;
}

/** The kinds chosen in the address; every kind when none (or only unknown ones) is chosen. */
export function timelineFilter(searchParams: URLSearchParams): TimelineKind[] {
  const chosen = searchParams
    .getAll("show")
    .filter((value): value is TimelineKind =>
      (TIMELINE_KINDS as readonly string[]).includes(value),
    );
  return chosen.length === 0
    ? [...TIMELINE_KINDS]
    : TIMELINE_KINDS.filter((kind) => chosen.includes(kind));
}
