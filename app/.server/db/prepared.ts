import type { Database, Engine } from "./client";

/**
 * Statements the hottest requests run (the API rate limit, `/api/desktop/me`: decision 0032),
 * planned once per connection instead of on every call, and read without Drizzle's query
 * building and row mapping, which cost more than the query itself there (about 0.4 ms of CPU per
 * call against 0.1 ms on PostgreSQL). Everything else uses Drizzle.
 *
 * - PostgreSQL: node-postgres' named statements, parsed and planned once per pooled connection.
 * - PGlite: `PREPARE` once in its one session, then `EXECUTE` (its `query` parses and plans a new
 *   unnamed statement on every call, about half the time of a lookup). `EXECUTE` takes no bind
 *   parameters, so the values are written as literals, quoted as node-postgres' `escapeLiteral`
 *   does: a value can never end the literal it is in.
 *
 * Rows come back as the driver parses them, without Drizzle: select timestamps as epoch
 * milliseconds (`float8`), which both drivers give as numbers.
 */
export type PreparedValue = string | number | Date;

export interface Prepared<Row> {
  run(database: Database, values: readonly PreparedValue[]): Promise<Row[]>;
}

interface PgPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface PGliteClient {
  waitReady: Promise<void>;
  exec(sql: string): Promise<unknown>;
  query(sql: string): Promise<{ rows: unknown[] }>;
}

/** The statements already prepared in each PGlite session (one per open database). */
const preparedIn = new WeakMap<PGliteClient, Map<string, Promise<unknown>>>();

/** A SQL string literal of `value` (node-postgres' escapeLiteral). */
export function literal(value: PreparedValue): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return `'${String(value)}'`;
  }
  const text = value instanceof Date ? value.toISOString() : value;
  let quoted = "'";
  let backslash = false;
  for (const char of text) {
    if (char === "'") quoted += "''";
    else if (char === "\\") {
      quoted += "\\\\";
      backslash = true;
    } else quoted += char;
  }
  quoted += "'";
  return backslash ? `E${quoted}` : quoted;
}

function clientOf(database: Database): PgPool | PGliteClient {
  return (database as unknown as { $client: PgPool | PGliteClient }).$client;
}

/** Which engine a database runs on (a test may open one beside the process's own). */
export function engineOf(database: Database): Engine {
  return "waitReady" in clientOf(database) ? "pglite" : "postgres";
}

/**
 * A statement with `$1`… placeholders of the given SQL types, named `name` (unique per statement:
 * PostgreSQL keeps it per connection, PGlite per session).
 */
export function prepared<Row>(name: string, types: readonly string[], text: string): Prepared<Row> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a statement name: ${name}`);
  // Each placeholder cast to its type: PostgreSQL infers a named statement's parameter types from
  // where they stand, and node-postgres cannot declare them; PGlite's PREPARE declares them.
  const typed = text.replace(/\$(\d+)/g, (placeholder, index: string) => {
    const type = types[Number(index) - 1];
    if (!type) throw new Error(`${name}: ${placeholder} has no type`);
    return `${placeholder}::${type}`;
  });
  return {
    async run(database, values) {
      if (values.length !== types.length)
        throw new Error(`${name} takes ${types.length} values, got ${values.length}`);
      const client = clientOf(database);
      if (!("waitReady" in client)) {
        const result = await client.query({ name, text: typed, values: [...values] });
        return result.rows as Row[];
      }
      let statements = preparedIn.get(client);
      if (!statements) {
        statements = new Map();
        preparedIn.set(client, statements);
      }
      let preparing = statements.get(name);
      if (!preparing) {
        preparing = client.exec(`prepare ${name}(${types.join(", ")}) as ${typed}`);
        statements.set(name, preparing);
        // A failed PREPARE is tried again by the next call.
        preparing.catch(() => statements.delete(name));
      }
      await preparing;
      const result = await client.query(`execute ${name}(${values.map(literal).join(", ")})`);
      return result.rows as Row[];
    },
  };
}
