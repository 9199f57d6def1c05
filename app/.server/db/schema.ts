/**
 * The one database schema of the product: every table, its relations and inferred types.
 * Both engines (PGlite embedded, PostgreSQL server) run the migrations generated from this file
 * (`npm run db:generate`), so write only what PostgreSQL 15 accepts.
 *
 * Identity tables are generated from Better Auth's own definitions (`npm run db:auth-schema`,
 * from app/.server/auth/options.ts) into auth-schema.ts; edit the options, not that file.
 */
export * from "./auth-schema";

import type { user } from "./auth-schema";

export type UserRow = typeof user.$inferSelect;
