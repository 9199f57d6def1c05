/**
 * A new embedded database is created in a child process (decision 0051), whose memory all goes
 * back when it exits; the site's own memory after a first start is tests/integration/footprint.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "./client";
import { createEmbeddedDatabase } from "./embedded";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-embedded-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it("creates a new database that opens with its settings, and says why when it cannot", async () => {
  const dataDir = path.join(root, "site");
  const handle = await openDatabase({ dataDir });
  try {
    expect(fs.existsSync(path.join(dataDir, "db", "PG_VERSION"))).toBe(true);
    const result = (await handle.db.execute(sql.raw("show shared_buffers"))) as unknown as {
      rows: { shared_buffers: string }[];
    };
    expect(result.rows[0]?.shared_buffers).toBe("16MB");
  } finally {
    await handle.close();
  }

  // A folder that cannot be made (a file stands where it would go): the child's error is given.
  const blocked = path.join(root, "a-file");
  fs.writeFileSync(blocked, "");
  await expect(createEmbeddedDatabase(path.join(blocked, "db"))).rejects.toThrow(
    /creating the embedded database at .*a-file\/db failed \(exit 1\): .+/,
  );
});
