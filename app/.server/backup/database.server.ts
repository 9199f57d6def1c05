/**
 * The database side of a backup, the same SQL on both engines: a consistent read of every table
 * (one read-only, repeatable-read transaction: on PostgreSQL a snapshot others write past, on
 * PGlite the one connection, so requests wait until it is read), and the load of a backup into
 * an empty database in one transaction.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DatabaseHandle, Executor } from "../db/client";
import { BLANKED_IN_BACKUPS, LEFT_OUT_OF_BACKUPS, ROWS_PER_LINE, rowsLine } from "./format";

type Rows<T> = { rows: T[] };

async function query<T>(executor: Executor, statement: SQL): Promise<T[]> {
  // Both drivers return { rows }; Drizzle's shared type for execute() does not say so.
  return ((await executor.execute(statement)) as unknown as Rows<T>).rows;
}

/** A name from the catalog, quoted: backups only ever name what the catalog lists. */
function quoted(name: string): SQL {
  return sql.raw(`"public"."${name.replace(/"/g, '""')}"`);
}

/** The public schema's tables, parents before children (foreign keys), then by name. */
export async function tablesInLoadOrder(executor: Executor): Promise<string[]> {
  const tables = (
    await query<{ name: string }>(
      executor,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname`,
    )
  ).map((row) => row.name);
  const edges = await query<{ child: string; parent: string }>(
    executor,
    sql`select child.relname as child, parent.relname as parent from pg_constraint con
        join pg_class child on child.oid = con.conrelid
        join pg_class parent on parent.oid = con.confrelid
        join pg_namespace n on n.oid = child.relnamespace
        where con.contype = 'f' and n.nspname = 'public'`,
  );
  return orderByDependencies(tables, edges);
}

/** Kahn's order: a table comes after every table it references (a self-reference is ignored). */
export function orderByDependencies(
  tables: readonly string[],
  edges: readonly { child: string; parent: string }[],
): string[] {
  const parents = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { child, parent } of edges)
    if (child !== parent && parents.has(parent)) parents.get(child)?.add(parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find(
      (table) => !placed.has(table) && [...parents.get(table)!].every((p) => placed.has(p)),
    );
    if (!next) throw new Error("the tables' foreign keys form a cycle: no load order exists");
    ordered.push(next);
    placed.add(next);
  }
  return ordered;
}

export async function sequenceNames(executor: Executor): Promise<string[]> {
  return (
    await query<{ name: string }>(
      executor,
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
    )
  ).map((row) => row.name);
}

export interface MigrationState {
  count: number;
  /** The last applied migration's journal `when` (0 with none). */
  last: number;
}

export async function migrationState(executor: Executor): Promise<MigrationState> {
  const [row] = await query<{ count: number; last: string | null }>(
    executor,
    sql`select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  return { count: Number(row?.count ?? 0), last: Number(row?.last ?? 0) };
}

/**
 * A row as PostgreSQL's JSON text, with the table's blanked columns (format.ts) set to null:
 * `jsonb ||` replaces those keys and keeps every other value as the database wrote it.
 */
function rowJson(table: string): SQL {
  const blanked = Object.hasOwn(BLANKED_IN_BACKUPS, table) ? BLANKED_IN_BACKUPS[table]! : [];
  if (blanked.length === 0) return sql.raw("row_to_json(backup_row.*)::text");
  const nulls = JSON.stringify(Object.fromEntries(blanked.map((column) => [column, null])));
  return sql`(to_jsonb(backup_row.*) || ${nulls}::jsonb)::text`;
}

export interface SnapshotSink {
  line(text: string): Promise<void>;
}

export interface SnapshotSummary {
  migrations: MigrationState;
  tables: Record<string, number>;
  sequences: number;
  /** Storage keys of the release files the snapshot names. */
  releaseKeys: string[];
}

/**
 * Writes every table's rows and every sequence to `sink`, read in one consistent snapshot.
 * `before` runs first inside it with the migration state (for the header).
 */
export async function writeSnapshot(
  handle: DatabaseHandle,
  sink: SnapshotSink,
  before: (migrations: MigrationState) => Promise<void>,
): Promise<SnapshotSummary> {
  return handle.db.transaction(
    async (tx) => {
      const migrations = await migrationState(tx);
      await before(migrations);
      const tables: Record<string, number> = {};
      for (const table of await tablesInLoadOrder(tx)) {
        // Live bearer secrets are never written (format.ts): restored, those tables start empty.
        if (Object.hasOwn(LEFT_OUT_OF_BACKUPS, table)) continue;
        tables[table] = 0;
        // A cursor reads the table in pieces: a table larger than memory is never held whole.
        await tx.execute(
          sql`declare backup_rows no scroll cursor for select ${rowJson(table)} as row from ${quoted(table)} backup_row`,
        );
        for (;;) {
          const rows = await query<{ row: string }>(
            tx,
            sql.raw(`fetch ${ROWS_PER_LINE} from backup_rows`),
          );
          if (rows.length === 0) break;
          tables[table] += rows.length;
          await sink.line(
            rowsLine(
              table,
              rows.map((row) => row.row),
            ),
          );
        }
        await tx.execute(sql`close backup_rows`);
      }
      const sequences = await sequenceNames(tx);
      for (const name of sequences) {
        const [state] = await query<{ last_value: string; is_called: boolean }>(
          tx,
          sql`select last_value::text as last_value, is_called from ${quoted(name)}`,
        );
        await sink.line(
          JSON.stringify({
            kind: "sequence",
            name,
            lastValue: state!.last_value,
            isCalled: state!.is_called,
          }),
        );
      }
      const releaseKeys = (
        await query<{ key: string }>(
          tx,
          sql`select distinct storage_key as key from release_assets where storage_key is not null order by 1`,
        )
      ).map((row) => row.key);
      return { migrations, tables, sequences: sequences.length, releaseKeys };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** True when the database has nothing of the site's: no table in public, no migrations schema. */
export async function isEmptyDatabase(executor: Executor): Promise<boolean> {
  const [row] = await query<{ count: number }>(
    executor,
    sql`select count(*)::int as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
  );
  return Number(row?.count ?? 0) === 0;
}

/**
 * Inserts one rows line into `table` (a table the catalog lists: a name from the file that is
 * not one is refused before any SQL is built). Identity columns take the backed-up values.
 */
export async function insertRows(
  executor: Executor,
  known: ReadonlySet<string>,
  table: string,
  rowsJson: string,
): Promise<void> {
  if (!known.has(table)) throw new Error(`the backup names a table this database lacks: ${table}`);
  await executor.execute(
    sql`insert into ${quoted(table)} overriding system value select * from json_populate_recordset(null::${quoted(table)}, ${rowsJson}::json)`,
  );
}

export async function setSequence(
  executor: Executor,
  known: ReadonlySet<string>,
  name: string,
  lastValue: string,
  isCalled: boolean,
): Promise<void> {
  if (!known.has(name)) throw new Error(`the backup names a sequence this database lacks: ${name}`);
  const qualified = `"public"."${name.replace(/"/g, '""')}"`;
  await executor.execute(sql`select setval(${qualified}, ${lastValue}::bigint, ${isCalled})`);
}

/** Removes what a failed restore created in a database that was empty before it started. */
export async function emptyDatabase(executor: Executor): Promise<void> {
  for (const table of await tablesInLoadOrder(executor))
    await executor.execute(sql`drop table if exists ${quoted(table)} cascade`);
  for (const name of await sequenceNames(executor))
    await executor.execute(sql`drop sequence if exists ${quoted(name)} cascade`);
  const functions = await query<{ signature: string }>(
    executor,
    sql`select p.oid::regprocedure::text as signature from pg_proc p
        join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'`,
  );
  for (const { signature } of functions)
    await executor.execute(sql.raw(`drop function if exists ${signature} cascade`));
  await executor.execute(sql`drop schema if exists drizzle cascade`);
}
