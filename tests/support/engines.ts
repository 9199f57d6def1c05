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

/** The engines every database test runs on: PGlite always, PostgreSQL when the setup found one. */
export function engines(): EngineCase[] {
  const postgresUrl = inject("postgresUrl");
  const list: EngineCase[] = [
    {
      name: "pglite",
      freshDatabaseUrl: async () => undefined,
      emptyDatabaseUrl: async () => undefined,
    },
  ];
  if (postgresUrl)
    list.push({
      name: "postgres",
      freshDatabaseUrl: () => createDatabase(postgresUrl),
      emptyDatabaseUrl: () => createDatabase(postgresUrl, { migrated: false }),
    });
  return list;
}
