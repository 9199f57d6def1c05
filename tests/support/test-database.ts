/**
 * For unit tests of the admin and account queries: a throwaway database, opened and migrated
 * exactly as the server does it, on the suite's engine (PostgreSQL when there is one, decision
 * 0059) unless the test names one. Never imported by the app.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, type DatabaseHandle, migrate, openDatabase } from "~/.server/db/client";
import { user as users } from "~/.server/db/schema";
import { type EngineCase, httpEngine } from "./engines";

/** Set by the global setup: an embedded database folder with every migration applied. */
export const MIGRATED_PGLITE_ENV = "PINOUT_TEST_MIGRATED_PGLITE";

export interface TestDatabase {
  db: Database;
  handle: DatabaseHandle;
  /** The temporary DATA_DIR (the embedded database is in its `db` folder). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A new database on `engine` (the suite's engine unless given): on PostgreSQL a copy of the run's
 * migrated template; on PGlite a temporary folder copied from the run's migrated one. With
 * `databaseUrl`, that existing PostgreSQL database instead (a second connection to one already
 * opened). Either way `migrate` runs as the server runs it, and finds nothing to do on a copy.
 */
export async function openTestDatabase(
  where: { engine?: EngineCase; databaseUrl?: string } = {},
): Promise<TestDatabase> {
  const databaseUrl =
    where.databaseUrl ?? (await (where.engine ?? httpEngine()).freshDatabaseUrl());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-unit-db-"));
  // A copy of the migrated folder: `migrate` below then finds nothing to do.
  const migrated = process.env[MIGRATED_PGLITE_ENV];
  if (migrated && !databaseUrl) fs.cpSync(migrated, dataDir, { recursive: true });
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase({ dataDir, databaseUrl });
    await migrate(handle);
  } catch (error) {
    await handle?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const opened = handle;
  return {
    db: opened.db,
    handle: opened,
    dataDir,
    async close() {
      await opened.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the database a stopped server used (its DATA_DIR, or its DATABASE_URL), runs `read` on it
 * and closes it again: the embedded database admits one process at a time.
 */
export async function readDatabase<T>(
  location: { dataDir: string; databaseUrl?: string },
  read: (database: Database) => Promise<T>,
): Promise<T> {
  const handle = await openDatabase(location);
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

/** A month of Pro paid at `paidAt`, as `issueInvoiceForPayment` is given a payment. */
export function monthlyPayment(input: {
  paymentId: string;
  userId: string;
  paidAt: Date;
  amountPaise?: number;
}) {
  return {
    paymentId: input.paymentId,
    amountPaise: input.amountPaise ?? 69_900,
    paidAt: input.paidAt,
    userId: input.userId,
    planId: "pro-monthly",
    periodStart: input.paidAt,
    periodEnd: new Date(input.paidAt.getTime() + 30 * 86_400_000),
  };
}

let sequence = 0;

/** Inserts a user the way Better Auth would have stored one; returns its id. */
export async function insertUser(
  database: Database,
  values: {
    email: string;
    name?: string;
    emailVerified?: boolean;
    role?: string | null;
    createdAt?: Date;
  },
): Promise<string> {
  sequence += 1;
  const id = `user-${sequence}-${values.email}`;
  await database.insert(users).values({
    id,
    email: values.email,
    name: values.name ?? values.email.split("@")[0] ?? "someone",
    emailVerified: values.emailVerified ?? true,
    role: values.role ?? "user",
    createdAt: values.createdAt ?? new Date(),
    updatedAt: new Date(),
  });
  return id;
}
