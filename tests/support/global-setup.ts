import type { TestProject } from "vitest/node";
import { findPostgresBin, startCluster } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL server for the database tests, or "" when this machine has none. */
    postgresUrl: string;
  }
}

/**
 * Database tests run on PGlite always and on PostgreSQL whenever one can be had: TEST_DATABASE_URL,
 * or a throwaway cluster from local server binaries. CI must have one: no silent skipping there.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("postgresUrl", process.env.TEST_DATABASE_URL);
    return;
  }
  const bin = findPostgresBin();
  if (!bin) {
    if (process.env.CI) {
      throw new Error("CI needs PostgreSQL: set TEST_DATABASE_URL or install the server binaries.");
    }
    console.warn("No PostgreSQL found: database tests run on PGlite only.");
    project.provide("postgresUrl", "");
    return;
  }
  const cluster = await startCluster(bin);
  project.provide("postgresUrl", cluster.url);
  return () => cluster.stop();
}
