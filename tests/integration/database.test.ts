import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createDatabase, contractEngines } from "../support/engines";
import { checkReadiness, type DatabaseHandle, migrate, openDatabase } from "~/.server/db/client";

const postgresUrl = inject("postgresUrl");

describe.runIf(postgresUrl)("migrations from several processes at once", () => {
  it("take turns: every migration is applied once and none fails", async () => {
    const databaseUrl = await createDatabase(postgresUrl, { migrated: false });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-db-"));
    const handles = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ dataDir, databaseUrl, poolMax: 1 })),
    );
    try {
      await Promise.all(handles.map((handle) => migrate(handle)));
      for (const handle of handles)
        expect(await checkReadiness(handle)).toMatchObject({ ok: true });
      const applied = (await handles[0]!.db.execute(
        sql`select count(*)::int as count, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations`,
      )) as unknown as { rows: { count: number; hashes: number }[] };
      expect(applied.rows[0]!.count).toBe(applied.rows[0]!.hashes);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });
});

describe.each(contractEngines("migrations"))("database on $name", (engine) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it("is not ready before migrations and ready after; migrating twice changes nothing", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-db-"));
    handle = await openDatabase({ dataDir, databaseUrl: await engine.emptyDatabaseUrl() });
    expect(handle.engine).toBe(engine.name);
    expect((await checkReadiness(handle)).ok).toBe(false);
    await migrate(handle);
    const ready = await checkReadiness(handle);
    expect(ready).toMatchObject({ ok: true, database: "reachable" });
    await migrate(handle);
    expect(await checkReadiness(handle)).toEqual(ready);
    const result = (await handle.db.execute(sql`select 1 + 1 as two`)) as unknown as {
      rows: { two: number }[];
    };
    expect(Number(result.rows[0]?.two)).toBe(2);
  });
});
