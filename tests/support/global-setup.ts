import pg from "pg";
import type { TestProject } from "vitest/node";
import { claimScratch } from "../../scripts/lib/scratch";
import { migrate, openDatabase } from "~/.server/db/client";
import { findPostgresBin, startCluster, TEMPLATE_DATABASE } from "./postgres";
import { MIGRATED_PGLITE_ENV } from "./test-database";
import { DATA_TEMPLATE_ENV, hasBuild, startServerProcess, tempDataDir } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server for the database tests, or "" when this machine has none. */
    postgresUrl: string;
    /** True when `postgresUrl` holds the migrated template database (engines.ts). */
    postgresTemplate: boolean;
    /** The run's temporary folder (TMPDIR in every worker). */
    scratchRoot: string;
  }
}

/**
 * Every temporary file of the run (data folders of test servers, databases, clusters) goes in one
 * folder, removed when the run ends (scripts/lib/scratch.ts). Claimed before anything else, so
 * the workers, started after this, inherit its TMPDIR.
 *
 * Database tests run on PGlite always and on PostgreSQL whenever one can be had: TEST_DATABASE_URL,
 * or a throwaway cluster from local server binaries. CI must have one: no silent skipping there.
 */
export default async function setup(project: TestProject) {
  const scratch = claimScratch("vitest");
  project.provide("scratchRoot", scratch.root);
  try {
    await Promise.all([makeDataTemplate(), makeMigratedPglite()]);
    const stopPostgres = await providePostgres(project);
    return () => {
      stopPostgres();
      scratch.release();
    };
  } catch (error) {
    scratch.release();
    throw error;
  }
}

async function providePostgres(project: TestProject): Promise<() => void> {
  project.provide("postgresTemplate", false);
  if (process.env.TEST_DATABASE_URL) {
    project.provide("postgresUrl", process.env.TEST_DATABASE_URL);
    return () => {};
  }
  const bin = findPostgresBin();
  if (!bin) {
    if (process.env.CI) {
      throw new Error("CI needs PostgreSQL: set TEST_DATABASE_URL or install the server binaries.");
    }
    console.warn("No PostgreSQL found: database tests run on PGlite only.");
    project.provide("postgresUrl", "");
    return () => {};
  }
  const cluster = await startCluster(bin);
  try {
    await makeTemplateDatabase(cluster.url);
  } catch (error) {
    cluster.stop();
    throw error;
  }
  project.provide("postgresUrl", cluster.url);
  project.provide("postgresTemplate", true);
  return () => {
    const seconds = cluster.cpuSeconds();
    if (seconds !== undefined)
      console.log(`PostgreSQL (the suite's cluster) used ${seconds.toFixed(1)} CPU-s`);
    cluster.stop();
  };
}

/**
 * Migrates one database on the run's cluster: every test database is a copy of it (`CREATE
 * DATABASE … TEMPLATE`), which costs a file copy instead of every migration per server start.
 */
async function makeTemplateDatabase(clusterUrl: string) {
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    await client.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${TEMPLATE_DATABASE}`;
  const handle = await openDatabase({ dataDir: "", databaseUrl: url.toString(), poolMax: 1 });
  try {
    await migrate(handle);
  } finally {
    await handle.close();
  }
}

/** An embedded database with every migration applied: `openTestDatabase` starts from a copy. */
async function makeMigratedPglite() {
  const dataDir = tempDataDir();
  const handle = await openDatabase({ dataDir });
  try {
    await migrate(handle);
  } finally {
    await handle.close();
  }
  process.env[MIGRATED_PGLITE_ENV] = dataDir;
}

/**
 * Starts the built site once on an empty embedded database and stops it: test servers that name
 * no data folder start on a copy (`startServer`). A unit-only run without a build skips it, and
 * so does `npm run test:quick` when it chose no test that starts a site (PINOUT_TEST_NO_SITES):
 * the start costs about 4 s of CPU, and a site started anyway only starts on an empty folder.
 */
async function makeDataTemplate() {
  if (!hasBuild() || process.env.PINOUT_TEST_NO_SITES) return;
  const dataDir = tempDataDir();
  const server = await startServerProcess({ dataDir });
  const { code } = await server.stop();
  if (code !== 0) throw new Error(`the template server exited with ${code}:\n${server.output()}`);
  process.env[DATA_TEMPLATE_ENV] = dataDir;
}
