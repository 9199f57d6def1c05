/**
 * Teams for the operator (issue 37, point 6, in part): every team with its GSTIN and state, its
 * owners, how many people it has and how many invitations wait; searched by name or GSTIN.
 */
import { asc, eq, ilike, or, sql } from "drizzle-orm";
import { db as defaultDb, type Executor } from "../db";
import { organization as organizations, teamProfiles } from "../db/schema";

export interface TeamListing {
  id: string;
  name: string;
  gstin: string | null;
  stateCode: string | null;
  owners: string[];
  members: number;
  pendingInvitations: number;
  createdAt: Date;
}

/** At most 200 teams, by name; `query` matches the name or the GSTIN, any case. */
export async function listTeams(
  query: string,
  database: Executor = defaultDb(),
  now = new Date(),
): Promise<TeamListing[]> {
  const q = query.trim().slice(0, 100);
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await database
    .select({
      id: organizations.id,
      name: organizations.name,
      createdAt: organizations.createdAt,
      gstin: teamProfiles.gstin,
      stateCode: teamProfiles.stateCode,
      owners: sql<string[]>`coalesce((
        select array_agg(u.email order by m.created_at) from member m join "user" u on u.id = m.user_id
         where m.organization_id = "organization"."id" and m.role = 'owner'), '{}')`,
      members: sql<number>`(select count(*)::int from member m where m.organization_id = "organization"."id")`,
      pendingInvitations: sql<number>`(select count(*)::int from invitation i
        where i.organization_id = "organization"."id" and i.status = 'pending'
          and i.expires_at > ${now.toISOString()})`,
    })
    .from(organizations)
    .leftJoin(teamProfiles, eq(teamProfiles.organizationId, organizations.id))
    .where(
      q ? or(ilike(organizations.name, pattern), ilike(teamProfiles.gstin, pattern)) : undefined,
    )
    .orderBy(asc(organizations.name))
    .limit(200);
  return rows.map((row) => ({
    ...row,
    owners: row.owners ?? [],
    members: Number(row.members),
    pendingInvitations: Number(row.pendingInvitations),
  }));
}
