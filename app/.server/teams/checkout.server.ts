/**
 * A team buys seats (issue 37, point 2): one Razorpay subscription on the seat's plan at its volume
 * tier, `quantity` = seats, authorised by the owner or a billing manager and made out to the team
 * (notes.team_id: nobody's own subscription). Reused while unpaid for the same seats and cycle,
 * never two open at once; the subscription gives seats when Razorpay confirms it (webhook or
 * resync, as every subscription).
 */
import { and, eq } from "drizzle-orm";
import { type BillingCycle } from "~/config/site";
import { seatQuote } from "~/lib/seats";
import { site } from "~/config/site";
import { type Database, db as defaultDb } from "../db";
import { subscriptions, type SubscriptionRow, teamProfiles } from "../db/schema";
import { cancelAtRazorpay } from "../billing/cancel-at-razorpay.server";
import { TOTAL_COUNT } from "../billing/checkout.server";
import { providerPlanFor } from "../billing/plans.server";
import { razorpay } from "../billing/provider.server";
import { RazorpayError, type RazorpayClient } from "../billing/razorpay/client";
import {
  applyProviderSubscription,
  LIVE_STATUSES,
  markEnding,
} from "../billing/subscriptions.server";
import { AppError } from "../http/errors";
import { LeaseBusyError, withLease } from "../security/lease.server";

export async function startTeamCheckout(
  buyer: { id: string; email: string },
  organizationId: string,
  order: { cycle: BillingCycle; seats: number },
  options: { database?: Database; client?: RazorpayClient } = {},
): Promise<SubscriptionRow> {
  const database = options.database ?? defaultDb();
  const client = options.client ?? razorpay();
  if (!Number.isInteger(order.seats) || order.seats < 1 || order.seats > site.teams.maxSeats)
    throw new AppError("invalid", `Choose between 1 and ${site.teams.maxSeats} seats.`, {
      field: "seats",
    });
  try {
    // One at a time per team, on every instance: two owners (or a double submit) would otherwise
    // both find no open checkout and create two subscriptions that could both be paid.
    return await withLease(
      `team-checkout:${organizationId}`,
      () => startNow(buyer, organizationId, order, database, client),
      { ttlSeconds: 60, waitMs: 20_000, database },
    );
  } catch (error) {
    if (error instanceof LeaseBusyError)
      throw new AppError(
        "conflict",
        "Someone else is buying seats for this team right now. Wait a moment and try again.",
      );
    throw error;
  }
}

async function startNow(
  buyer: { id: string; email: string },
  organizationId: string,
  order: { cycle: BillingCycle; seats: number },
  database: Database,
  client: RazorpayClient,
): Promise<SubscriptionRow> {
  const [profile] = await database
    .select({ name: teamProfiles.name })
    .from(teamProfiles)
    .where(eq(teamProfiles.organizationId, organizationId));
  if (!profile)
    throw new AppError("conflict", "Save the team's billing details first: invoices need them.");
  const rows = await database
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.teamId, organizationId));
  if (rows.some((row) => LIVE_STATUSES.includes(row.status) && row.status !== "halted"))
    throw new AppError(
      "conflict",
      "The team has seats already: its subscription is on this page. Write to us to change the number of seats.",
    );

  const quote = seatQuote(order.cycle, order.seats);
  const { providerPlanId } = await providerPlanFor(
    quote.planId,
    database,
    client,
    quote.seatPricePaise,
  );
  for (const open of rows.filter((row) => row.status === "created")) {
    const readAt = new Date();
    const fresh = await client.fetchSubscription(open.providerSubscriptionId);
    if (
      fresh.status === "created" &&
      open.providerPlanId === providerPlanId &&
      (fresh.quantity ?? 1) === order.seats
    )
      return (await applyProviderSubscription(database, fresh, readAt)) ?? open;
    if (fresh.status !== "created") {
      await applyProviderSubscription(database, fresh, readAt);
      if (["authenticated", "active", "pending"].includes(fresh.status))
        throw new AppError("conflict", "The team's seats were just paid for: reload this page.");
      continue;
    }
    // Another number of seats or cycle: the old checkout can never be paid.
    try {
      await applyProviderSubscription(
        database,
        await cancelAtRazorpay(database, client, open, { reason: "abandoned", atCycleEnd: false }),
        new Date(),
      );
      await markEnding(database, open.id, "abandoned");
    } catch (error) {
      if (!(error instanceof RazorpayError && error.refused)) throw error;
    }
  }

  const readAt = new Date();
  const created = await client.createSubscription({
    plan_id: providerPlanId,
    total_count: TOTAL_COUNT[order.cycle],
    quantity: order.seats,
    customer_notify: 1,
    notes: {
      team_id: organizationId,
      plan_id: quote.planId,
      seats: String(order.seats),
      bought_by: buyer.id,
      email: buyer.email,
    },
  });
  const row = await applyProviderSubscription(database, created, readAt);
  if (!row) throw new Error(`team subscription ${created.id} was not stored`);
  return row;
}

/** The team's unpaid checkout with this Razorpay id, for the page's verify step. */
export async function teamCheckoutOf(
  organizationId: string,
  providerSubscriptionId: string,
  database: Database = defaultDb(),
): Promise<SubscriptionRow | null> {
  const [row] = await database
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.teamId, organizationId),
        eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
      ),
    );
  return row ?? null;
}
