import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { TEMPLATE_DATABASE } from "./postgres";

export interface EngineCase {
  name: "pglite" | "postgres";
  /**
   * A new database for PostgreSQL, already migrated (a copy of the run's template); undefined for
   * PGlite (a fresh DATA_DIR instead, which `startServer` fills from its own template).
   */
  freshDatabaseUrl(): Promise<string | undefined>;
  /** As `freshDatabaseUrl`, but with no migration applied: for tests of migrating itself. */
  emptyDatabaseUrl(): Promise<string | undefined>;
}

/**
 * Creates a database and returns its URL. On the run's own cluster it is a copy of the migrated
 * template (`CREATE DATABASE … TEMPLATE`, a file copy: no migration runs per test), unless
 * `migrated` is false; on any other server (an outage test's own cluster) it is empty.
 */
export async function createDatabase(
  baseUrl: string,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<string> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  const fromTemplate = migrated && inject("postgresTemplate") && baseUrl === inject("postgresUrl");
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(
      fromTemplate
        ? `create database ${name} template ${TEMPLATE_DATABASE}`
        : `create database ${name}`,
    );
  } finally {
    await client.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Why a test runs on both engines (issue 55, decision 0059): it exists because the engines differ
 * there, or it proves the embedded default a newcomer runs whole. Every other database test runs on
 * the production engine only.
 */
export type EngineContract =
  | "migrations"
  | "backup and restore"
  | "job queue"
  | "stored documents"
  | "embedded default"
  | "money journey"
  | "prepared statements"
  | "rate limits";

const PGLITE: EngineCase = {
  name: "pglite",
  freshDatabaseUrl: async () => undefined,
  emptyDatabaseUrl: async () => undefined,
};

function postgres(postgresUrl: string): EngineCase {
  return {
    name: "postgres",
    freshDatabaseUrl: () => createDatabase(postgresUrl),
    emptyDatabaseUrl: () => createDatabase(postgresUrl, { migrated: false }),
  };
}

/**
 * The engine the HTTP and database tests run on: PostgreSQL, the production engine (and the
 * cheaper one to start), when the setup found one; PGlite on a machine without it, so every test
 * still runs there. `.ci/run` installs PostgreSQL.
 */
export function engines(): EngineCase[] {
  const postgresUrl = inject("postgresUrl");
  return [postgresUrl ? postgres(postgresUrl) : PGLITE];
}

/**
 * Both engines, for the engine contract: what differs between them or only the embedded default
 * does. `why` is the tag, and says which part of the contract the test holds.
 */
export function contractEngines(why: EngineContract): EngineCase[] {
  void why;
  const postgresUrl = inject("postgresUrl");
  return postgresUrl ? [PGLITE, postgres(postgresUrl)] : [PGLITE];
}

/** PGlite, the embedded default: for a test of PGlite itself (its settings, its folder). */
export function embeddedEngine(): EngineCase {
  return PGLITE;
}

/** The one engine of `engines()`, for a test file that starts one site outside `describe.each`. */
export function httpEngine(): EngineCase {
  return engines()[0]!;
}
