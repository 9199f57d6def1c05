import { handOverTeamsOf } from "../teams/hand-over.server";
import { eq, inArray } from "drizzle-orm";
import { forgetMailsTo } from "../mail/mail-log.server";
import { type Database, db } from "../db";
import { cancelFlowVisits, feedback, subscriptions, trials } from "../db/schema";

/**
 * Erases a user's personal data that lives outside the identity tables. Devices, tokens and usage
 * rows go with the user row (ON DELETE CASCADE); feedback is keyed by email as well, since people
 * write in before they sign up.
 */
export async function eraseUserData(
  userId: string,
  email: string,
  database: Database = db(),
): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.delete(feedback).where(eq(feedback.userId, userId));
    await tx.delete(feedback).where(eq(feedback.email, email.toLowerCase()));
    // The record of mails sent to the address (the "account deleted" mail starts a new one,
    // kept as long as the mail log keeps anything).
    await forgetMailsTo(email, tx);
    // Payment records outlive the account (tax law), but not the tie to the browser it bought in.
    await tx
      .update(subscriptions)
      .set({ analyticsClientId: null, cancelReason: null })
      .where(eq(subscriptions.userId, userId));
    // Why they cancelled, in their own words: the counts keep the fixed reason, not the text.
    await tx
      .update(cancelFlowVisits)
      .set({ reasonText: null })
      .where(
        inArray(
          cancelFlowVisits.subscriptionId,
          tx
            .select({ id: subscriptions.id })
            .from(subscriptions)
            .where(eq(subscriptions.userId, userId)),
        ),
      );
    // The trial's row outlives the account (one trial per mailbox), not its browser's id.
    await tx.update(trials).set({ analyticsClientId: null }).where(eq(trials.userId, userId));
    // A team keeps an owner when its only owner leaves this way (their membership goes with them).
    await handOverTeamsOf(tx, userId);
  });
}
