import type { BetterAuthOptions } from "better-auth";
import { admin } from "better-auth/plugins";

/**
 * The parts of the Better Auth configuration that decide its tables. Shared by the running
 * instance (auth.server.ts) and the schema generator (scripts/auth-schema.config.ts), so the
 * Drizzle schema is always generated from the exact options the server runs with.
 */
export const authSchemaOptions = {
  rateLimit: { enabled: true, storage: "database" },
  plugins: [admin({ defaultRole: "user", adminRoles: ["admin"] })],
} satisfies Partial<BetterAuthOptions>;
