/**
 * Seats added mid-cycle (issue 37, point 3): the record of what the upfront amount of a team's
 * new subscription pays for. Read by the webhook that records its payment, to invoice it as the
 * added seats over the rest of the cycle.
 */
import { and, eq } from "drizzle-orm";
import type { Executor } from "../db";
import { teamSeatTopups, type TeamSeatTopupRow } from "../db/schema";

/** The top-up a payment of `amountPaise` on subscription `subscriptionId` paid, if it is one. */
export async function seatTopupPaidBy(
  executor: Executor,
  subscriptionId: string,
  amountPaise: number,
): Promise<TeamSeatTopupRow | null> {
  const [row] = await executor
    .select()
    .from(teamSeatTopups)
    .where(
      and(
        eq(teamSeatTopups.subscriptionId, subscriptionId),
        eq(teamSeatTopups.amountPaise, amountPaise),
      ),
    );
  return row ?? null;
}
