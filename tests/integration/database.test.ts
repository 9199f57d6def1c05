import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { engines } from "../support/engines";
import { checkReadiness, type DatabaseHandle, migrate, openDatabase } from "~/.server/db/client";

describe.each(engines())("database on $name", (engine) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it("is not ready before migrations and ready after; migrating twice changes nothing", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-db-"));
    handle = await openDatabase({ dataDir, databaseUrl: await engine.freshDatabaseUrl() });
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
