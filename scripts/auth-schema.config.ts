/**
 * Input for Better Auth's schema generator (`npm run db:auth-schema`): the table-defining options
 * of the real configuration on a placeholder database. Never used at run time.
 */
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { authSchemaOptions } from "../app/.server/auth/options";

export const auth = betterAuth({
  // The generator reads table definitions only; it never queries this placeholder.
  database: drizzleAdapter({}, { provider: "pg" }),
  emailAndPassword: { enabled: true },
  ...authSchemaOptions,
});
