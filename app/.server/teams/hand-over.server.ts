/**
 * A team outlives its owner's account (issue 37): when the account of a team's only owner is
 * deleted, the member who joined first (a billing manager before a member) becomes owner, and
 * the team's audit log says so; a team with nobody else in it goes with the account.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import { auditBySite } from "../admin/audit.server";
import type { Executor } from "../db";
import { member as members, organization as organizations } from "../db/schema";

export async function handOverTeamsOf(executor: Executor, userId: string): Promise<void> {
  const owned = await executor
    .select({ organizationId: members.organizationId })
    .from(members)
    .where(and(eq(members.userId, userId), eq(members.role, "owner")));
  for (const { organizationId } of owned) {
    const others = await executor
      .select({ id: members.id, userId: members.userId, role: members.role })
      .from(members)
      .where(and(eq(members.organizationId, organizationId), ne(members.userId, userId)))
      .orderBy(asc(members.createdAt));
    if (others.some((other) => other.role === "owner")) continue;
    const heir = others.find((other) => other.role === "billing") ?? others[0];
    if (!heir) {
      await executor.delete(organizations).where(eq(organizations.id, organizationId));
      continue;
    }
    await executor.update(members).set({ role: "owner" }).where(eq(members.id, heir.id));
    await auditBySite(executor, {
      action: "team.owner-handed-over",
      targetUserId: heir.userId,
      target: organizationId,
      reason: "The team's only owner deleted their account",
      before: { role: heir.role },
      after: { role: "owner" },
    });
  }
}
