/**
 * The seat rule (issue 53, finding 1): at any moment, the people with Pro through a team are no
 * more than the seats it pays for at that moment. The entitlement enforces it on every read
 * (only the oldest `paid` seats give Pro); this job makes the seats themselves follow, taking back
 * the most recently given ones when the paid count falls (a cancelled change, a reduction that
 * took effect, a cycle that ended), and tells each person who lost one. An owner chooses who
 * keeps a seat by taking seats back before the change takes effect.
 */
import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { type Database, db as defaultDb } from "../db";
import { organization as organizations, user as users } from "../db/schema";
import { defineJob } from "../jobs/define";
import { queueMail } from "../mail/outbox.server";
import { seatTakenBackMessage } from "../mail/team-templates";
import { env } from "../env";
import { releaseSeat, teamSeatsOf, withSeatLease } from "./seats.server";
import { TRIM_SEATS_JOB } from "./trim-queue";

/** Takes back the seats beyond those paid for now; the user ids that lost one. */
export async function trimTeamSeats(
  organizationId: string,
  options: { database?: Database; now?: Date } = {},
): Promise<string[]> {
  const database = options.database ?? defaultDb();
  return withSeatLease(
    organizationId,
    () =>
      database.transaction(async (tx) => {
        const seats = await teamSeatsOf(organizationId, tx, options.now);
        // No seats paid at all: the seats give nothing, and the team keeps its list of who had
        // one for when it buys again (its page says the subscription ended).
        if (seats.bought === 0 || seats.holders.length <= seats.bought) return [];
        // Floating seats (issue 57): named seats give nothing meanwhile, and are kept as they are
        // for a move back to named seats, which queues this check again.
        if (seats.mode === "floating") return [];
        const lost = seats.holders.slice(seats.bought);
        await releaseSeat(organizationId, lost, tx);
        const [team] = await tx
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, organizationId));
        const people = await tx
          .select({ id: users.id, email: users.email, name: users.name })
          .from(users)
          .where(inArray(users.id, lost));
        const site = env().SITE_URL.replace(/\/+$/, "");
        for (const person of people)
          await queueMail(
            tx,
            seatTakenBackMessage({
              to: person.email,
              name: person.name,
              team: team?.name ?? "your team",
              paidSeats: seats.bought,
              url: `${site}/account/subscription`,
            }),
            // One mail per seat lost: a seat given again and lost again is a new mail.
            `seat-taken-back:${organizationId}:${person.id}:${(options.now ?? new Date()).getTime()}`,
          );
        return lost;
      }),
    database,
  );
}

export const trimSeatsJob = defineJob({
  name: TRIM_SEATS_JOB,
  lane: "money",
  payload: z.object({ organizationId: z.string().min(1).max(100) }),
  timeoutMs: 60_000,
  maxAttempts: 10,
  async handler({ organizationId }) {
    await trimTeamSeats(organizationId);
  },
});
