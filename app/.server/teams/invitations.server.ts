/** The invitations waiting for an address, for the person signed in with it. */
import { INVITATION_WAITING } from "./invitation-status";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { db as defaultDb, type Executor } from "../db";
import { invitation as invitations, organization as organizations } from "../db/schema";

export async function pendingInvitationsFor(
  email: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<{ id: string; team: string; expiresAt: Date }[]> {
  return database
    .select({ id: invitations.id, team: organizations.name, expiresAt: invitations.expiresAt })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(
      and(
        sql`lower(${invitations.email}) = ${email.toLowerCase()}`,
        eq(invitations.status, INVITATION_WAITING),
        gt(invitations.expiresAt, now),
      ),
    )
    .orderBy(asc(invitations.createdAt));
}
