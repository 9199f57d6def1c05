/**
 * Disputes (chargebacks) as Razorpay reports them, defined once (issue 59, point 4): their
 * statuses, which of them are still undecided, and each in the operator's words, checked
 * complete by the compiler. Browser-safe.
 */
export const DISPUTE_STATUSES = ["open", "under_review", "won", "lost", "closed"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/**
 * What each status means: whether the operator may still answer it, how it ended for the money
 * (`won` keeps it, `lost` returns it to the customer; a closed one ends without either), and its
 * words on the operator's pages.
 */
export const DISPUTE_RULES = {
  open: { undecided: true, outcome: null, words: "Open: answer with evidence by the deadline" },
  under_review: { undecided: true, outcome: null, words: "Under review by the bank" },
  won: { undecided: false, outcome: "won", words: "Won: the money stays" },
  lost: { undecided: false, outcome: "lost", words: "Lost: the bank took the payment back" },
  closed: { undecided: false, outcome: null, words: "Closed without a decision against you" },
} as const satisfies Record<
  DisputeStatus,
  { undecided: boolean; outcome: "won" | "lost" | null; words: string }
>;

/** Not decided yet: the operator may still answer with evidence. */
export const UNDECIDED_DISPUTE_STATUSES = DISPUTE_STATUSES.filter(
  (status) => DISPUTE_RULES[status].undecided,
);

function isDisputeStatus(status: string): status is DisputeStatus {
  return (DISPUTE_STATUSES as readonly string[]).includes(status);
}

export function disputeStatusWords(status: string): string {
  return isDisputeStatus(status) ? DISPUTE_RULES[status].words : status;
}

/** Whether a dispute can still be answered (its evidence deadline matters). */
export function isUndecided(status: string): boolean {
  return isDisputeStatus(status) && DISPUTE_RULES[status].undecided;
}
