/** The buyer's billing details, used for the tax invoices of future payments. */
import { eq } from "drizzle-orm";
import type { BillingDetails } from "~/lib/billing-details";
import { type Database, db as defaultDb } from "../db";
import { type BillingProfile, billingProfiles } from "../db/schema";

export async function billingProfileOf(
  userId: string,
  database: Database = defaultDb(),
): Promise<BillingProfile | null> {
  const [row] = await database
    .select()
    .from(billingProfiles)
    .where(eq(billingProfiles.userId, userId));
  return row ?? null;
}

export async function saveBillingProfile(
  userId: string,
  details: BillingDetails,
  database: Database = defaultDb(),
): Promise<void> {
  const values = { ...details, updatedAt: new Date() };
  await database
    .insert(billingProfiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: billingProfiles.userId, set: values });
}
