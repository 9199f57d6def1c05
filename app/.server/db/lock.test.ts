import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { acquireDirectoryLock, DatabaseLockedError } from "./lock";

describe("acquireDirectoryLock", () => {
  it("holds the folder until released and names the owner when taken", () => {
    const dbPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "nested", "db");
    const release = acquireDirectoryLock(dbPath);
    expect(fs.readFileSync(`${dbPath}.lock`, "utf8")).toBe(`${process.pid}\n`);
    expect(() => acquireDirectoryLock(dbPath)).toThrowError(DatabaseLockedError);
    expect(() => acquireDirectoryLock(dbPath)).toThrow(
      `database at ${dbPath} is in use by process ${process.pid}`,
    );
    release();
    expect(fs.existsSync(`${dbPath}.lock`)).toBe(false);
    acquireDirectoryLock(dbPath)();
  });

  it("takes over a lock whose process is gone", () => {
    const dbPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "db");
    fs.writeFileSync(`${dbPath}.lock`, "4194305\n");
    const release = acquireDirectoryLock(dbPath);
    expect(fs.readFileSync(`${dbPath}.lock`, "utf8")).toBe(`${process.pid}\n`);
    release();
  });
});
