import { spawn } from "node:child_process";
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

describe("stale locks", () => {
  it("takes over a lock naming this process's pid that this process does not hold (a restarted PID 1)", () => {
    const dbPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "db");
    fs.writeFileSync(`${dbPath}.lock`, `${process.pid}\n`);
    const release = acquireDirectoryLock(dbPath);
    expect(() => acquireDirectoryLock(dbPath)).toThrowError(DatabaseLockedError);
    release();
    expect(fs.existsSync(`${dbPath}.lock`)).toBe(false);
  });

  it("lets exactly one of several processes take over a stale lock", async () => {
    const dbPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "db");
    fs.writeFileSync(`${dbPath}.lock`, "4194305\n");
    const script = [
      `import { acquireDirectoryLock } from ${JSON.stringify(path.resolve("app/.server/db/lock.ts"))};`,
      "try { acquireDirectoryLock(process.argv[2]); console.log('won'); setTimeout(() => {}, 1500); }",
      "catch { console.log('lost'); }",
    ].join("\n");
    const file = path.join(path.dirname(dbPath), "contender.ts");
    fs.writeFileSync(file, script);
    const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
    const results = await Promise.all(
      Array.from(
        { length: 5 },
        () =>
          new Promise<string>((resolve) => {
            const child = spawn(process.execPath, [tsx, file, dbPath], {
              stdio: ["ignore", "pipe", "inherit"],
            });
            let out = "";
            child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
            child.on("exit", () => resolve(out.trim()));
          }),
      ),
    );
    expect(results.filter((result) => result === "won")).toHaveLength(1);
    expect(results.filter((result) => result === "lost")).toHaveLength(4);
  }, 60_000);
});
