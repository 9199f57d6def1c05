/** The buyer's billing details, used for the tax invoices of future payments. */
import { eq } from "drizzle-orm";
import { type BillingDetails, isAbroad } from "~/lib/billing-details";
import { currencyName } from "~/lib/money";
import { AppError } from "../http/errors";
import { liveSubscriptionsOf } from "./subscriptions.server";
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

/**
 * Saves a person's billing details. A subscription's country side never changes silently (issue
 * 56): while one runs in rupees the buyer stays in India, while one runs in another currency the
 * buyer stays abroad; moving means a new subscription, and the refusal says so.
 */
export async function saveBillingProfile(
  userId: string,
  details: BillingDetails,
  database: Database = defaultDb(),
): Promise<void> {
  const running = await liveSubscriptionsOf(userId, database);
  const crossing = running.find((row) => (row.currency === "INR") === isAbroad(details));
  if (crossing)
    throw new AppError(
      "conflict",
      crossing.currency === "INR"
        ? "Your subscription is billed in rupees to an address in India. To be billed abroad, cancel it and subscribe again in your currency once it ends."
        : `Your subscription is billed in ${currencyName(crossing.currency)} to an address outside India. To be billed in India, cancel it and subscribe again in rupees once it ends.`,
      { field: "countryCode" },
    );
  const values = { ...details, updatedAt: new Date() };
  await database
    .insert(billingProfiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: billingProfiles.userId, set: values });
}
