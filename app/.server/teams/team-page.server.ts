/**
 * What a team's page (/account/team/:id) shows, read once for its loader: its seats in words
 * (bought, held, waiting, the subscription's renewal and next charge, a scheduled change), its
 * invoices for those who manage it, and its people and invitations with their roles' labels.
 */
import { STATUS_RULES } from "~/lib/subscription-state";
import { stateOfRow } from "../billing/subscription-state.server";
import type { SessionUser } from "../auth/session-shape";
import { nextCharge } from "../billing/charge-amount.server";
import { invoicesOf } from "../invoices/queries.server";
import { teamBuyer } from "../billing/buyer";
import { findPlan, planLabel } from "~/lib/plans";
import { stateByCode } from "~/lib/gst";
import { TEAM_ROLE_LABELS } from "./roles";
import { teamSeatsOf } from "./seats.server";
import { floatingSeatsOf } from "./floating-seats.server";
import type { TeamView } from "./teams.server";

export async function teamPage(user: Pick<SessionUser, "id">, team: TeamView) {
  const manages = team.myRole !== "member";
  const seats = await teamSeatsOf(team.id);
  const subscription = seats.subscription;
  const floating = await floatingSeatsOf(team.id);
  return {
    me: user.id,
    // Floating seats (issue 57): who runs Pro on which machine is for those who manage the team;
    // a member sees the counts.
    floating: manages ? floating : { ...floating, inUse: [], refused: [], ended: [] },
    seats: {
      mode: seats.mode,
      bought: seats.bought,
      held: seats.holders.length,
      invited: seats.invited,
      free: seats.free,
      holders: seats.holders,
      mine: seats.holders.includes(user.id),
      // Stopped after a failed renewal: Razorpay's page takes the missed charge and restarts it.
      haltedFixUrl: manages && seats.halted ? (seats.halted.shortUrl ?? "") : null,
      halted: seats.halted !== null,
      // A change of seats scheduled for the end of this period (point 3).
      next:
        seats.next && seats.next.seats !== seats.bought
          ? {
              seats: seats.next.seats,
              from: (seats.next.chargeAt ?? seats.next.startAt)?.toISOString() ?? null,
              // Teams buy in rupees only (decision 0061: seats abroad are not sold yet).
              chargePaise: manages ? (await nextCharge(seats.next)).amount : null,
              per: findPlan(seats.next.planId)?.billingCycle === "yearly" ? "year" : "month",
            }
          : null,
      subscription: subscription
        ? {
            plan: planLabel(subscription.planId),
            status: subscription.status,
            // A change of seats waits for the cycle's end (seats added and paid for now, or fewer
            // from then): the team's subscription is switching, as a person's plan switch is.
            state: seats.next ? ("switching" as const) : stateOfRow(subscription),
            // Seats added this period: the new subscription gives them now and renews from then.
            addedUntil:
              seats.next && seats.next.id === subscription.id
                ? (subscription.chargeAt?.toISOString() ?? null)
                : null,
            renews:
              STATUS_RULES[subscription.status].goodStanding && !subscription.cancelAtCycleEnd,
            // Cancelled by the team (not ending because a change of seats replaces it).
            cancelled: subscription.cancelAtCycleEnd && seats.next === null,
            // Razorpay's page to authorise again with another method, after a failed charge.
            fixUrl:
              manages && STATUS_RULES[subscription.status].dunning !== null
                ? subscription.shortUrl
                : null,
            currentEnd: subscription.currentEnd?.toISOString() ?? null,
            chargeAt: subscription.chargeAt?.toISOString() ?? null,
            // What the next charge comes to: the one function every page asks.
            nextChargePaise: manages ? (await nextCharge(subscription)).amount : null,
          }
        : null,
    },
    // The team's tax invoices: for its owner and billing managers only (point 5).
    invoices: manages
      ? (await invoicesOf(teamBuyer(team.id))).map((row) => ({
          id: row.id,
          number: row.number,
          kind: row.kind,
          issuedAt: row.issuedAt.toISOString(),
          totalPaise: row.totalPaise,
        }))
      : null,
    team: {
      ...team,
      myRoleLabel: TEAM_ROLE_LABELS[team.myRole],
      members: team.members.map((person) => ({
        ...person,
        roleLabel: TEAM_ROLE_LABELS[person.role],
      })),
      invitations: team.invitations.map((invite) => ({
        ...invite,
        roleLabel: TEAM_ROLE_LABELS[invite.role],
      })),
      stateName: team.profile ? (stateByCode(team.profile.stateCode)?.name ?? "") : "",
    },
  };
}

export type TeamPage = Awaited<ReturnType<typeof teamPage>>;
