/**
 * Who pays a subscription (issue 54, one buyer): a person, or a team for its seats (issue 37).
 * One tagged type through checkout, the subscription commands and the reactions to a sync; a
 * leaf (schema only), so any billing module may take it.
 */
import { eq, type SQL } from "drizzle-orm";
import { subscriptions, type SubscriptionRow } from "../db/schema";

export type Buyer = { kind: "person"; userId: string } | { kind: "team"; teamId: string };

export const personBuyer = (userId: string): Buyer => ({ kind: "person", userId });
export const teamBuyer = (teamId: string): Buyer => ({ kind: "team", teamId });

/** Who pays a stored subscription: its team, else its person; null once neither is left. */
export function buyerOf(row: Pick<SubscriptionRow, "userId" | "teamId">): Buyer | null {
  if (row.teamId) return teamBuyer(row.teamId);
  return row.userId ? personBuyer(row.userId) : null;
}

/** The condition on `subscriptions` that selects the buyer's own. */
export function ofBuyer(buyer: Buyer): SQL {
  switch (buyer.kind) {
    case "person":
      return eq(subscriptions.userId, buyer.userId);
    case "team":
      return eq(subscriptions.teamId, buyer.teamId);
  }
}
