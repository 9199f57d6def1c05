/**
 * The refund policy's window of a payment (REFUND_WINDOW_DAYS from its `paid_at`), decided where
 * both sides of its boundary can agree: the customer's own refund is taken inside it, the
 * referrer's reward only after it, never both for one payment (issue 53, "also close").
 *
 * By the database's clock, not the process's: instances whose clocks differ by a minute would
 * otherwise each see their own boundary, one rewarding as another refunds. And by
 * `clock_timestamp()`, not `now()`: `now()` is when the transaction began, which can be before
 * it waited for the payment's row; read after that lock, the reading of whichever side took the
 * row second is the later one, so the two decisions are ordered as the lock orders them.
 */
import { eq, sql } from "drizzle-orm";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import type { Executor } from "../db";
import { payments } from "../db/schema";

/**
 * Whether the payment's refund window is still open now, by the database's clock; null when the
 * payment is not recorded. Call it after locking the payment's row (`refundableLeft`), in the
 * transaction that acts on the answer.
 */
export async function refundWindowOpen(
  executor: Executor,
  paymentId: string,
): Promise<boolean | null> {
  const [row] = await executor
    .select({
      open: sql<boolean>`clock_timestamp() <= ${payments.paidAt} + make_interval(days => ${REFUND_WINDOW_DAYS})`,
    })
    .from(payments)
    .where(eq(payments.providerPaymentId, paymentId));
  return row ? Boolean(row.open) : null;
}
