/**
 * Team roles (issue 37, decision 0054) for Better Auth's organization plugin: the owner (all of
 * it), the billing manager (seats and invoices, inviting people), and the member (uses a seat).
 * Our server asks the plugin through `auth().api.*` only; none of its endpoints is open over HTTP
 * (decision 0028), so these permissions are what our actions check, not a public API's.
 */
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements } from "better-auth/plugins/organization/access";

export const TEAM_ROLES = ["owner", "billing", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  owner: "Owner",
  billing: "Billing manager",
  member: "Member",
};

export const teamAccess = createAccessControl({
  ...defaultStatements,
  billing: ["read", "manage"],
} as const);

export const teamRoles = {
  owner: teamAccess.newRole({
    organization: ["update", "delete"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    billing: ["read", "manage"],
  }),
  // Invites people and manages seats and invoices; only the owner removes other people, changes
  // roles or deletes the team.
  billing: teamAccess.newRole({
    invitation: ["create", "cancel"],
    billing: ["read", "manage"],
  }),
  member: teamAccess.newRole({}),
};

/** Invitations last a week: long enough for a colleague on leave, short enough to go stale. */
export const INVITATION_DAYS = 7;
