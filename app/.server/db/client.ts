import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread } from "node:worker_threads";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import {
  createEmbeddedDatabase,
  embeddedStartParams,
  selectBaselineWasmCompiler,
} from "./embedded";
import { acquireDirectoryLock } from "./lock";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * A database or an open transaction: what a function takes when it must work inside its caller's
 * transaction (enqueue a job, write an audit row, issue an invoice with the payment).
 */
export type Executor = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Engine = "pglite" | "postgres";

export interface DatabaseHandle {
  db: Database;
  engine: Engine;
  /** Where the data lives: the PGlite folder, or the server URL without its password. */
  location: string;
  close(): Promise<void>;
  /**
   * Runs `task` while no other process runs one under the same `key`. PostgreSQL: an advisory
   * lock on a connection of its own (outside the pool, so even a pool of one cannot deadlock).
   * PGlite: the task runs as it is, the data folder's lock already keeps other processes out.
   */
  exclusively<T>(key: number, task: () => Promise<T>): Promise<T>;
  /** PostgreSQL's connection pool as it is now (for /metrics); the embedded database has none. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * Calls `onMessage` with the payload of every NOTIFY on `channel` (a lowercase identifier), from
   * any process on this database, and with `null` after a lost connection came back (notices may
   * have been missed meanwhile). Resolves to a function that stops listening.
   */
  listen(
    channel: string,
    onMessage: (payload: string | null) => void,
  ): Promise<() => Promise<void>>;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** A lost listening connection is opened again after this pause. */
const RELISTEN_DELAY_MS = 1_000;

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string;
  poolMax?: number;
  /** An idle PostgreSQL connection broke (server restarted or unreachable). */
  onPoolError?: (error: Error) => void;
}

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/**
 * The embedded database holds password hashes and TOTP secrets: from its opening on, what this
 * process creates is its owner's alone (umask 077, as the postmaster sets it), and so are the
 * files PGlite creates while it runs (it asks for 0666 for some). A worker thread has no umask of
 * its own: there only the pass of makeOwnerOnly at opening tightens the folder.
 */
function ownerOnlyFromNowOn(): void {
  if (!isMainThread) return;
  const previous = process.umask(0o077);
  if ((previous | 0o077) !== 0o077) process.umask(previous | 0o077);
}

/** Takes the group's and others' permissions off `file`; false when it is gone. */
function tighten(file: string, stat: (file: string) => fs.Stats = fs.lstatSync): boolean {
  try {
    const { mode } = stat(file);
    if (mode & 0o077) fs.chmodSync(file, mode & 0o7700);
    return true;
  } catch (error) {
    // Removed meanwhile (a temporary file): nothing to tighten.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Takes the group's and others' permissions off a folder and all in it (links left as they are). */
function makeOwnerOnly(dir: string, stat: (file: string) => fs.Stats = fs.lstatSync): void {
  if (!tighten(dir, stat)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) makeOwnerOnly(file);
    else if (entry.isFile()) tighten(file);
  }
}

/** Opens the database the environment names: PostgreSQL when a URL is given, else PGlite. */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { Client, Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const pool = new Pool({
      connectionString: options.databaseUrl,
      max: options.poolMax ?? 10,
      // An unreachable server answers "unavailable" within seconds instead of hanging requests.
      connectionTimeoutMillis: 5_000,
    });
    // Idle connections break when the server restarts or goes away; without a listener that
    // error would end the process. The pool replaces them once the server is back.
    pool.on("error", (error) => options.onPoolError?.(error));
    const db = drizzle(pool, { schema });
    await db.execute(sql`select 1`);
    return {
      db,
      engine: "postgres",
      location: redactUrl(options.databaseUrl),
      close: () => pool.end(),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: options.poolMax ?? 10,
      }),
      async exclusively(key, task) {
        const client = new Client({ connectionString: options.databaseUrl });
        // A connection lost while locked releases the lock; the task's own queries report it.
        client.on("error", () => {});
        await client.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [key]);
          return await task();
        } finally {
          // Ending the session releases the lock, also when the task failed.
          await client.end();
        }
      },
      async listen(channel, onMessage) {
        if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
        let stopped = false;
        let current: InstanceType<typeof Client> | undefined;
        let retry: NodeJS.Timeout | undefined;
        // LISTEN belongs to a session, so it needs a connection of its own, kept open.
        const connect = async (again: boolean) => {
          const client = new Client({ connectionString: options.databaseUrl });
          client.on("error", () => {});
          client.on("notification", (notice) => {
            if (notice.channel === channel) onMessage(notice.payload ?? "");
          });
          try {
            await client.connect();
            await client.query(`listen ${channel}`);
          } catch (error) {
            await client.end().catch(() => {});
            throw error;
          }
          if (stopped) return void (await client.end());
          current = client;
          client.on("end", () => {
            current = undefined;
            if (!stopped) retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
          });
          if (again) onMessage(null);
        };
        const reconnect = () => {
          if (stopped) return;
          connect(true).catch(() => {
            retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
          });
        };
        await connect(false).catch(() => {
          retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
        });
        return async () => {
          stopped = true;
          clearTimeout(retry);
          await current?.end().catch(() => {});
        };
      },
    };
  }
  const dbPath = path.join(options.dataDir, "db");
  ownerOnlyFromNowOn();
  const release = acquireDirectoryLock(dbPath);
  try {
    // PGlite does not create missing parent folders.
    fs.mkdirSync(dbPath, { recursive: true, mode: 0o700 });
    // Before PGlite opens it (a folder made by an older version is 0755): once the folder is
    // owner-only, nobody else reaches what is inside, whatever the files' modes.
    tighten(dbPath, fs.statSync);
    // A new database is created by a child process, whose memory all goes back when it exits.
    if (!fs.existsSync(path.join(dbPath, "PG_VERSION"))) await createEmbeddedDatabase(dbPath);
    selectBaselineWasmCompiler();
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const client = new PGlite(dbPath, { startParams: embeddedStartParams(PGlite) });
    await client.waitReady;
    // The files of a new database come out of PGlite 0666 whatever the umask (and an older
    // version left 0644 ones): tightened once it has opened, its new files included.
    makeOwnerOnly(dbPath, fs.statSync);
    const db = drizzle(client, { schema });
    return {
      db,
      engine: "pglite",
      location: dbPath,
      exclusively: (_key, task) => task(),
      listen: async (channel, onMessage) => {
        if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
        const unlisten = await client.listen(channel, (payload) => onMessage(payload));
        return () => unlisten();
      },
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** The migrations folder: found from this module, both in the source tree and in the build. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "drizzle");
    if (fs.existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error("drizzle/meta/_journal.json not found above " + import.meta.url);
    dir = parent;
  }
}

function journalEntries(folder: string): number {
  const journal = JSON.parse(
    fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8"),
  ) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** Any fixed number: the advisory lock that lets one process at a time migrate a database. */
const MIGRATION_LOCK = 0x70696e6f;

/**
 * Applies every pending migration. Both migrators run each migration in a transaction. On
 * PostgreSQL, processes starting together (instances, or the workers of WEB_CONCURRENCY) take
 * turns: the first migrates while the others wait on an advisory lock, then find nothing to do.
 * `folder`: another set (a restore migrates to the backup's version first: backup/migrations).
 */
export async function migrate(
  handle: DatabaseHandle,
  folder: string = migrationsFolder(),
): Promise<void> {
  if (handle.engine === "postgres") {
    const { migrate: run } = await import("drizzle-orm/node-postgres/migrator");
    await handle.exclusively(MIGRATION_LOCK, () =>
      run(handle.db as Parameters<typeof run>[0], { migrationsFolder: folder }),
    );
  } else {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(handle.db as Parameters<typeof run>[0], { migrationsFolder: folder });
  }
}

export interface Readiness {
  ok: boolean;
  database: "reachable" | "unreachable";
  migrations: { applied: number; expected: number };
}

/** Readiness for /readyz: the database answers and every migration of this build is applied. */
export async function checkReadiness(handle: DatabaseHandle): Promise<Readiness> {
  const expected = journalEntries(migrationsFolder());
  try {
    // Both drivers return { rows }; Drizzle's shared type for execute() does not say so.
    const result = (await handle.db.execute(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { count: number }[] };
    const applied = Number(result.rows[0]?.count ?? 0);
    return { ok: applied >= expected, database: "reachable", migrations: { applied, expected } };
  } catch {
    return { ok: false, database: "unreachable", migrations: { applied: 0, expected } };
  }
}
