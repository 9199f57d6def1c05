/**
 * The refund policy's window for a new subscription's first payment (content/legal/refund.md):
 * the self-serve refund keeps to it, and a referral is rewarded only once it has passed.
 */
export const REFUND_WINDOW_DAYS = 7;
