import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

export interface EngineCase {
  name: "pglite" | "postgres";
  /** A fresh, empty database URL for PostgreSQL; undefined for PGlite (a fresh DATA_DIR instead). */
  freshDatabaseUrl(): Promise<string | undefined>;
}

/** Creates an empty database on the test cluster and returns its URL. */
export async function createDatabase(baseUrl: string): Promise<string> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
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
  const list: EngineCase[] = [{ name: "pglite", freshDatabaseUrl: async () => undefined }];
  if (postgresUrl)
    list.push({ name: "postgres", freshDatabaseUrl: () => createDatabase(postgresUrl) });
  return list;
}
