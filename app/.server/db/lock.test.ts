import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
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
    // A holder that died between creating the file and writing its pid leaves it empty (and an
    // older version used to write the pid into a draft file beside it).
    const dbPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lock-")), "db");
    fs.writeFileSync(`${dbPath}.lock`, "");
    const release = acquireDirectoryLock(dbPath);
    expect(fs.readFileSync(`${dbPath}.lock`, "utf8")).toBe(`${process.pid}\n`);
    expect(fs.readdirSync(path.dirname(dbPath))).toEqual(["db.lock"]);
    release();
  });
});

/**
 * The unshare command line that starts a process in a PID namespace of its own, or why there is
 * none here. Probed once: a namespace the child really is in (its pid namespace differs from ours).
 */
function probeUnshare(): { args: string[] } | { reason: string } {
  const ours = fs.readlinkSync("/proc/self/ns/pid");
  const reasons: string[] = [];
  for (const args of [
    ["--pid", "--fork", "--mount-proc"],
    ["-U", "-r", "--pid", "--fork", "--mount-proc"],
    ["-U", "-r", "--pid", "--fork"],
  ]) {
    const probe = spawnSync("unshare", [...args, "readlink", "/proc/self/ns/pid"], {
      encoding: "utf8",
      timeout: 10_000,
    });
    const theirs = probe.stdout?.trim();
    if (probe.status === 0 && theirs && theirs !== ours) return { args };
    reasons.push(
      `unshare ${args.join(" ")}: ${probe.error?.message ?? (probe.stderr.trim() || `exit ${probe.status}, namespace ${theirs || "?"}`)}`,
    );
  }
  return { reason: `no PID namespace can be made here (${reasons.join("; ")})` };
}

const unshare = process.platform === "linux" ? probeUnshare() : { reason: "not Linux" };
if ("reason" in unshare) console.warn(`skipping the PID namespace lock test: ${unshare.reason}`);

/**
 * Runs a TypeScript file (argv[2] = dbPath) in node with tsx's loader, optionally under `prefix`
 * (unshare). No tsx CLI in between: the node process that takes the lock is the child itself, so
 * its pid is the one the lock names and killing it kills the lock's owner.
 */
function runScript(file: string, dbPath: string, prefix: string[] = []): ChildProcess {
  const loader = pathToFileURL(path.resolve("node_modules/tsx/dist/loader.mjs")).href;
  const [command, ...args] = [...prefix, process.execPath, "--import", loader, file, dbPath];
  return spawn(command!, args, { stdio: ["ignore", "pipe", "inherit"] });
}

/** The first line a child prints (or all it printed when it exits first). */
function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.on("exit", () => resolve(out.trim()));
  });
}

describe("a process in another PID namespace (another container on the same volume)", () => {
  it.skipIf("reason" in unshare)(
    `is refused while the holder lives and takes the lock once it has exited${"reason" in unshare ? ` (skipped: ${unshare.reason})` : ""}`,
    async () => {
      const args = "args" in unshare ? unshare.args : [];
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-ns-"));
      const dbPath = path.join(dir, "db");
      const lockModule = JSON.stringify(path.resolve("app/.server/db/lock.ts"));
      const holderFile = path.join(dir, "holder.ts");
      fs.writeFileSync(
        holderFile,
        [
          `import { acquireDirectoryLock } from ${lockModule};`,
          "acquireDirectoryLock(process.argv[2]); console.log('held'); setInterval(() => {}, 1000);",
        ].join("\n"),
      );
      const contenderFile = path.join(dir, "contender.ts");
      fs.writeFileSync(
        contenderFile,
        [
          `import { acquireDirectoryLock } from ${lockModule};`,
          "try { acquireDirectoryLock(process.argv[2]); console.log('won'); }",
          "catch (error) { console.log('refused: ' + (error as Error).message); }",
        ].join("\n"),
      );

      const holder = runScript(holderFile, dbPath);
      try {
        expect(await firstLine(holder)).toBe("held");
        const refused = await firstLine(runScript(contenderFile, dbPath, ["unshare", ...args]));
        expect(refused).toContain(
          `refused: database at ${dbPath} is in use by process ${holder.pid}, a pid of another PID namespace`,
        );
        expect(fs.readFileSync(`${dbPath}.lock`, "utf8")).toBe(`${holder.pid}\n`);

        // The holder dies without releasing (as a killed container does): its lock goes with it.
        const exited = new Promise((resolve) => holder.once("exit", resolve));
        holder.kill("SIGKILL");
        await exited;
        expect(await firstLine(runScript(contenderFile, dbPath, ["unshare", ...args]))).toBe("won");
      } finally {
        holder.kill("SIGKILL");
      }
    },
    60_000,
  );
});
