/**
 * The one database schema of the product: every table, its relations and inferred types.
 * Both engines (PGlite embedded, PostgreSQL server) run the migrations generated from this file
 * (`npm run db:generate`), so write only what PostgreSQL 15 accepts.
 */
export {};
