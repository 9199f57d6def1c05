import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATED_PGLITE_ENV } from "../../../tests/support/test-database";
import { migrate, openDatabase } from "./client";

/** Every folder and file under `dir` (itself included), with its permission bits in octal. */
function modes(dir: string): { folders: Map<string, string>; files: Map<string, string> } {
  const folders = new Map<string, string>();
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    folders.set(folder, (fs.statSync(folder).mode & 0o7777).toString(8));
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else files.set(file, (fs.lstatSync(file).mode & 0o7777).toString(8));
    }
  };
  walk(dir);
  return { folders, files };
}

/** The entries of `map` whose value is not `expected`: empty when all are. */
function except(map: Map<string, string>, expected: string): [string, string][] {
  return [...map].filter(([, mode]) => mode !== expected);
}

/** Opens the embedded database in `dataDir` as the server does (open, migrate), then closes it. */
async function openMigrateClose(dataDir: string, whileOpen?: () => void): Promise<void> {
  const handle = await openDatabase({ dataDir });
  try {
    await migrate(handle);
    whileOpen?.();
  } finally {
    await handle.close();
  }
}

describe("the embedded database's folder is its owner's alone", () => {
  // Opening the database sets this process's umask: give the worker its own back afterwards.
  let umask = 0;
  beforeAll(() => {
    umask = process.umask(0o022);
    process.umask(umask);
  });
  afterAll(() => {
    process.umask(umask);
  });

  it("creates DATA_DIR and DATA_DIR/db 0700, every file under db/ 0600, the lock file 0600", async () => {
    // A umask that would let everyone read: what a default shell gives.
    process.umask(0o022);
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "data-dir-mode-"));
    const dataDir = path.join(root, "data");
    const dbPath = path.join(dataDir, "db");
    let lockMode = "";
    await openMigrateClose(dataDir, () => {
      lockMode = (fs.statSync(`${dbPath}.lock`).mode & 0o7777).toString(8);
      // While it runs too: what PGlite wrote on opening and while migrating.
      const { folders, files } = modes(dbPath);
      expect(files.size).toBeGreaterThan(100);
      expect(except(folders, "700")).toEqual([]);
      expect(except(files, "600")).toEqual([]);
      // Files PGlite creates later ask for 0666 too (pg_internal.init): the umask covers them.
      const later = path.join(root, "created-later");
      fs.writeFileSync(later, "");
      expect((fs.statSync(later).mode & 0o7777).toString(8)).toBe("600");
    });
    expect(lockMode).toBe("600");
    expect((fs.statSync(dataDir).mode & 0o7777).toString(8)).toBe("700");
    const { folders, files } = modes(dbPath);
    expect(except(folders, "700")).toEqual([]);
    expect(except(files, "600")).toEqual([]);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("tightens a database folder an older version left readable by everyone, and leaves an existing DATA_DIR's mode alone", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "data-dir-mode-"));
    const dbPath = path.join(dataDir, "db");
    // A database made earlier: a copy of the run's migrated one (a new one is made above).
    const migrated = process.env[MIGRATED_PGLITE_ENV];
    if (migrated) fs.cpSync(migrated, dataDir, { recursive: true });
    else await openMigrateClose(dataDir);
    // As the previous version left it: folders 0755, files 0644 (and PGlite's 0666).
    fs.chmodSync(dataDir, 0o755);
    const loosen = (folder: string) => {
      fs.chmodSync(folder, 0o755);
      for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) loosen(file);
        else fs.chmodSync(file, entry.name === "PG_VERSION" ? 0o666 : 0o644);
      }
    };
    loosen(dbPath);
    expect(except(modes(dbPath).files, "600")).not.toEqual([]);

    await openMigrateClose(dataDir);
    const { folders, files } = modes(dbPath);
    expect(except(folders, "700")).toEqual([]);
    expect(except(files, "600")).toEqual([]);
    // The operator's folder (it may hold more than ours): its mode is theirs to choose.
    expect((fs.statSync(dataDir).mode & 0o7777).toString(8)).toBe("755");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
