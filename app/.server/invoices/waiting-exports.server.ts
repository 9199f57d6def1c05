/**
 * A day's RBI reference rate entered by the operator (issue 56, decision 0061): stored, audited,
 * and every payment abroad of that currency and day that waited for it is valued and invoiced,
 * each in its own transaction (one failing leaves the others issued), with credit notes for any
 * refund that came meanwhile. The invoices are dated when they were paid: the time of supply.
 */
import type { Session } from "../auth/session-shape";
import { audit } from "../admin/audit.server";
import { type Database, db as defaultDb } from "../db";
import { payments } from "../db/schema";
import { eq } from "drizzle-orm";
import type { ForeignCurrency } from "~/lib/money";
import { creditRefundsOf, issueExportInvoiceForPayment } from "./issue.server";
import {
  exportsWaitingForRate,
  saveReferenceRate,
  subscriptionOfPayment,
} from "./reference-rates.server";

export async function enterReferenceRate(
  session: Session,
  input: { currency: ForeignCurrency; day: string; rateE4: number },
  database: Database = defaultDb(),
): Promise<{ issued: string[] }> {
  await database.transaction(async (tx) => {
    await saveReferenceRate(tx, { ...input, enteredBy: session.user.email });
    await audit(tx, session, {
      action: "exchange-rate.enter",
      targetUserId: null,
      target: `${input.currency} ${input.day}`,
      before: null,
      after: { rateE4: input.rateE4 },
    });
  });
  const waiting = (await exportsWaitingForRate(database)).filter(
    (payment) => payment.currency === input.currency && payment.day === input.day,
  );
  const issued: string[] = [];
  for (const payment of waiting) {
    const number = await database.transaction(async (tx) => {
      const subscription = await subscriptionOfPayment(tx, payment.subscriptionId);
      if (!subscription) return null;
      const [row] = await tx
        .select({ periodEnd: payments.periodEnd })
        .from(payments)
        .where(eq(payments.providerPaymentId, payment.paymentId));
      const invoice = await issueExportInvoiceForPayment(tx, {
        paymentId: payment.paymentId,
        amountPaise: payment.amount,
        currency: payment.currency,
        inrValuePaise: null,
        paidAt: payment.paidAt,
        userId: subscription.userId,
        planId: subscription.planId,
        periodStart: null,
        periodEnd: row?.periodEnd ?? null,
        team: subscription.teamId ? { id: subscription.teamId, seats: subscription.seats } : null,
      });
      if (invoice) await creditRefundsOf(tx, payment.paymentId);
      return invoice?.number ?? null;
    });
    if (number) issued.push(number);
  }
  return { issued };
}
