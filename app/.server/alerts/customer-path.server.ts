import { eq } from "drizzle-orm";
import { customerPagePath } from "~/lib/admin-paths";
import { subscriptions, user as users } from "../db/schema";
import type { Executor } from "../db";

/**
 * The admin page of a subscription's customer, and how to name them in an alert: their address
 * (the operator's page finds the customer by it) and the subscription's Razorpay id.
 */
export async function subscriptionCustomer(
  executor: Executor,
  subscriptionRowId: string,
): Promise<{ email: string; providerId: string; path: string } | null> {
  const [row] = await executor
    .select({ email: users.email, providerId: subscriptions.providerSubscriptionId })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(eq(subscriptions.id, subscriptionRowId));
  if (!row) return null;
  return {
    ...row,
    path: customerPagePath(row.email),
  };
}
