/**
 * A team buys seats (issue 37, point 2), or changes their number (point 3; decision 0054): one
 * Razorpay subscription on the seat's plan at its volume tier, `quantity` = seats, authorised by
 * the owner or a billing manager and made out to the team (notes.team_id: nobody's own
 * subscription). A change is a new subscription from the current cycle's end, with an upfront
 * amount for seats added. Reused while unpaid for the same order, never two open at once; it
 * gives seats when Razorpay confirms it (webhook or resync, as every subscription).
 */
import { checkoutOpen, STATUS_RULES } from "~/lib/subscription-state";
import { eq } from "drizzle-orm";
import { type BillingCycle, site } from "~/config/site";
import { findPlan } from "~/lib/plans";
import { type SeatTopup, seatQuote, seatsText, seatTopup } from "~/lib/seats";
import type { Database } from "../db";
import { subscriptions, type SubscriptionRow, teamProfiles, teamSeatTopups } from "../db/schema";
import { teamBuyer } from "../billing/buyer";
import {
  type CheckoutOrder,
  markReplacing,
  type PreparedOrder,
  TOTAL_COUNT,
} from "../billing/checkout.server";
import { providerPlanFor } from "../billing/plans.server";
import type { RazorpayClient } from "../billing/razorpay/client";
import { AppError } from "../http/errors";
import { teamSeatsOf } from "./seats.server";

/**
 * A team's order of seats, for `startCheckout` (one checkout for every buyer, issue 54): `buyer` is
 * the owner or billing manager authorising it, whose page checked the role.
 */
export function seatsOrder(
  buyer: { id: string; email: string },
  organizationId: string,
  order: { cycle: BillingCycle; seats: number },
): CheckoutOrder {
  return {
    buyer: teamBuyer(organizationId),
    busyMessage:
      "Someone else is buying seats for this team right now. Wait a moment and try again.",
    prepare: (database, client) =>
      prepareSeatsOrder(buyer, organizationId, order, database, client),
  };
}

async function prepareSeatsOrder(
  buyer: { id: string; email: string },
  organizationId: string,
  order: { cycle: BillingCycle; seats: number },
  database: Database,
  client: RazorpayClient,
): Promise<PreparedOrder> {
  if (!Number.isInteger(order.seats) || order.seats < 1 || order.seats > site.teams.maxSeats)
    throw new AppError("invalid", `Choose between 1 and ${site.teams.maxSeats} seats.`, {
      field: "seats",
    });
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
  const live = rows.filter((row) => STATUS_RULES[row.status].manageable);
  const change =
    live.length > 0 ? await plannedChange(organizationId, rows, order, database) : null;
  const cycle = change?.current ? cycleOf(change.current) : order.cycle;
  const quote = seatQuote(cycle, order.seats);
  const { providerPlanId } = await providerPlanFor(quote.planId, database, client, {
    currency: "INR",
    amount: quote.seatPricePaise,
  });
  const replaces = change?.current ?? null;
  const topupPaise = change?.topup?.amountPaise ?? null;

  return {
    open: rows.filter((row) => checkoutOpen(row.status)),
    // The same order: seats, plan, what it replaces and what it charges up front (a day later,
    // fewer days are left, and Razorpay's upfront amount is fixed when it is created).
    async sameOrder(open, fresh) {
      const [openTopup] = await database
        .select({ amountPaise: teamSeatTopups.amountPaise })
        .from(teamSeatTopups)
        .where(eq(teamSeatTopups.subscriptionId, open.id));
      return (
        open.providerPlanId === providerPlanId &&
        (fresh.quantity ?? 1) === order.seats &&
        open.replacesSubscriptionId === (replaces?.id ?? null) &&
        (openTopup?.amountPaise ?? null) === topupPaise
      );
    },
    paidMeanwhile: new AppError(
      "conflict",
      "The team's seats were just paid for: reload this page.",
    ),
    create: () =>
      client.createSubscription({
        plan_id: providerPlanId,
        total_count: TOTAL_COUNT[cycle],
        quantity: order.seats,
        customer_notify: 1,
        // A change starts when the current cycle ends; the added seats' share of the current
        // cycle is the upfront amount its authentication charges.
        ...(replaces?.currentEnd
          ? { start_at: Math.floor(replaces.currentEnd.getTime() / 1000) }
          : {}),
        ...(change?.topup
          ? {
              addons: [
                {
                  item: {
                    name: `${seatsText(change.topup.seatsAdded)} more for ${change.topup.daysLeft} of ${change.topup.cycleDays} days`,
                    amount: change.topup.amountPaise,
                    currency: "INR" as const,
                  },
                },
              ],
            }
          : {}),
        notes: {
          team_id: organizationId,
          plan_id: quote.planId,
          seats: String(order.seats),
          bought_by: buyer.id,
          email: buyer.email,
          ...(replaces ? { replaces: replaces.providerSubscriptionId } : {}),
        },
      }),
    async complete(row, readAt) {
      if (!replaces) return row;
      return database.transaction(async (tx) => {
        const replacing = await markReplacing(tx, row, replaces);
        if (change?.topup && replaces.currentEnd)
          await tx.insert(teamSeatTopups).values({
            subscriptionId: row.id,
            seatsAdded: change.topup.seatsAdded,
            amountPaise: change.topup.amountPaise,
            periodStart: readAt,
            periodEnd: replaces.currentEnd,
          });
        return replacing;
      });
    },
  };
}

const cycleOf = (row: SubscriptionRow): BillingCycle =>
  findPlan(row.planId)?.billingCycle ?? "monthly";

/**
 * A change of the number of seats of a team with a running subscription (point 3): checked
 * against what the team has now, with the upfront amount for seats added. Fewer seats than are
 * held or promised to invitations are refused: nobody loses Pro by surprise at the cycle's end.
 */
async function plannedChange(
  organizationId: string,
  rows: readonly SubscriptionRow[],
  order: { seats: number },
  database: Database,
  now = new Date(),
): Promise<{ current: SubscriptionRow; topup: SeatTopup | null }> {
  const current = rows.find(
    (row) =>
      STATUS_RULES[row.status].paidUp && row.currentStart && row.currentEnd && row.currentEnd > now,
  );
  if (!current || !current.currentStart || !current.currentEnd)
    throw new AppError(
      "conflict",
      "The number of seats can be changed once the current period is paid. Write to us if this lasts.",
    );
  const scheduled = rows.find(
    (row) => row.replacesSubscriptionId === current.id && STATUS_RULES[row.status].goodStanding,
  );
  if (scheduled)
    throw new AppError(
      "conflict",
      `A change to ${seatsText(scheduled.seats)} is already scheduled for the end of this period.`,
    );
  if (current.cancelAtCycleEnd)
    throw new AppError("conflict", "The team's subscription ends with this period.");
  if (order.seats === current.seats)
    throw new AppError("invalid", `The team has ${seatsText(current.seats)} already.`, {
      field: "seats",
    });
  if (order.seats < current.seats) {
    const seats = await teamSeatsOf(organizationId, database, now);
    const promised = seats.holders.length + seats.invited;
    if (promised > order.seats)
      throw new AppError(
        "conflict",
        `${seats.holders.length} ${seats.holders.length === 1 ? "person holds a seat" : "people hold seats"} and ${seats.invited} ${seats.invited === 1 ? "is" : "are"} kept for invitations: take seats back or withdraw invitations until no more than ${order.seats} are, then reduce the seats.`,
        { field: "seats" },
      );
    return { current, topup: null };
  }
  const price = seatQuote(cycleOf(current), order.seats).seatPricePaise;
  return {
    current,
    topup: seatTopup(
      price,
      order.seats - current.seats,
      { start: current.currentStart, end: current.currentEnd },
      now,
    ),
  };
}
