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
    // A winner holds the lock until every contender has answered: on a busy machine one may start
    // after another has already won and gone, which would be a second win but no race.
    const script = [
      `import { acquireDirectoryLock } from ${JSON.stringify(path.resolve("app/.server/db/lock.ts"))};`,
      "try { acquireDirectoryLock(process.argv[2]); console.log('won'); setInterval(() => {}, 1000); }",
      "catch { console.log('lost'); }",
    ].join("\n");
    const file = path.join(path.dirname(dbPath), "contender.ts");
    fs.writeFileSync(file, script);
    const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");
    const children = Array.from({ length: 5 }, () =>
      spawn(process.execPath, [tsx, file, dbPath], { stdio: ["ignore", "pipe", "inherit"] }),
    );
    try {
      const results = await Promise.all(
        children.map(
          (child) =>
            new Promise<string>((resolve) => {
              let out = "";
              child.stdout.on("data", (chunk: Buffer) => {
                out += chunk.toString();
                if (out.includes("\n")) resolve(out.trim());
              });
              child.on("exit", () => resolve(out.trim()));
            }),
        ),
      );
      expect(results.filter((result) => result === "won")).toHaveLength(1);
      expect(results.filter((result) => result === "lost")).toHaveLength(4);
    } finally {
      for (const child of children) child.kill();
    }
  }, 60_000);

  it("takes over a damaged (empty) lock file and leaves no draft file behind", () => {
    // Only a lock file left by an older version that crashed while writing it can be empty: the
    // lock file now appears with its pid already in it.
    const dbPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "db");
    fs.writeFileSync(`${dbPath}.lock`, "");
    const release = acquireDirectoryLock(dbPath);
    expect(fs.readFileSync(`${dbPath}.lock`, "utf8")).toBe(`${process.pid}\n`);
    expect(fs.readdirSync(path.dirname(dbPath))).toEqual(["db.lock"]);
    release();
  });
});
