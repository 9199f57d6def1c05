import type { BetterAuthOptions } from "better-auth";
import { admin, organization, twoFactor } from "better-auth/plugins";
import { INVITATION_DAYS, teamAccess, teamRoles } from "../teams/roles";
import { site } from "~/config/site";

/**
 * The parts of the Better Auth configuration that decide its tables. Shared by the running
 * instance (auth.server.ts) and the schema generator (scripts/auth-schema.config.ts), so the
 * Drizzle schema is always generated from the exact options the server runs with.
 */
export const authSchemaOptions = {
  rateLimit: { enabled: true, storage: "database" },
  session: {
    // Set only by our server (input: false: a client that sends them gets 400). A browser opened
    // from the desktop app carries the device's id, and must confirm its password before
    // sensitive actions (docs/decisions/0018); stepUpAt is when it last did.
    additionalFields: {
      desktopDeviceId: { type: "string", required: false, input: false, index: true },
      stepUpAt: { type: "date", required: false, input: false },
    },
  },
  plugins: [
    admin({ defaultRole: "user", adminRoles: ["admin"] }),
    // TOTP (RFC 6238) with backup codes; the sign-in page asks for a code when it is on.
    twoFactor({ issuer: site.product.name }),
    // Teams (issue 37, decision 0054): organisations, members and invitations. The invitation
    // mail is queued by our own code (teams/invitations.server.ts), not by the plugin.
    organization({
      ac: teamAccess,
      roles: teamRoles,
      creatorRole: "owner",
      invitationExpiresIn: INVITATION_DAYS * 24 * 60 * 60,
      cancelPendingInvitationsOnReInvite: true,
      requireEmailVerificationOnInvitation: true,
    }),
  ],
} satisfies Partial<BetterAuthOptions>;
