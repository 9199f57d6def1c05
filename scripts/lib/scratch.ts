import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { visibleFromHere } from "../../app/.server/db/lock";

/**
 * A test or bench run's temporary files, all in one folder of its own.
 *
 * Claiming it points TMPDIR there, so every `os.tmpdir()` caller of the run (test helpers, the
 * servers and PostgreSQL clusters they start, Chromium) writes inside it without having to clean
 * up after itself. The run removes the folder when it ends; a run that was killed leaves it, and
 * the next run of any kind removes it once its process is gone. Before this, each full test run
 * left about 6 GB in /tmp (a data folder per test server), until the disk was full.
 */
export interface Scratch {
  /** The run's folder; TMPDIR while the run lasts. */
  root: string;
  /** The temporary folder the run was started with (where the run's folder lives). */
  outer: string;
  /** Removes the folder and gives TMPDIR back. Safe to call more than once. */
  release(): void;
}

const PREFIX = "pinout-run-";
/** Set for the run's children, so a config loaded again in a worker uses the same folder. */
export const SCRATCH_ENV = "PINOUT_SCRATCH_ROOT";
const OUTER_ENV = "PINOUT_OUTER_TMPDIR";

/** The folder name for `kind` run by process `pid`. */
export function scratchName(kind: string, pid: number): string {
  if (!/^[a-z0-9-]+$/.test(kind)) throw new Error(`scratch kind must be [a-z0-9-]: ${kind}`);
  return `${PREFIX}${kind}-${pid}`;
}

/**
 * Removes the folders of runs whose process is gone (killed, or a machine restarted), and returns
 * their names. A folder whose process still runs is another run in progress and is kept.
 */
export function sweepStaleScratch(
  outer: string,
  alive: (pid: number) => boolean = visibleFromHere,
) {
  const removed: string[] = [];
  for (const name of fs.readdirSync(outer)) {
    const match = /^pinout-run-[a-z0-9-]+-(\d+)$/.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || alive(pid)) continue;
    fs.rmSync(path.join(outer, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** The temporary folder outside any run's folder (the same in a run's children). */
export function outerTmpdir(): string {
  return process.env[OUTER_ENV] ?? os.tmpdir();
}

/**
 * Claims this process's run folder and points TMPDIR (and so `os.tmpdir()`, here and in every
 * child started after this) at it. `outer` is where it goes (tests pass their own).
 */
export function claimScratch(kind: string, outer = outerTmpdir()): Scratch {
  sweepStaleScratch(outer);
  const root = path.join(outer, scratchName(kind, process.pid));
  fs.mkdirSync(root, { recursive: true });
  // Traversable by other users: the PostgreSQL cluster runs as `postgres` in a folder inside it.
  fs.chmodSync(root, 0o711);
  const names = ["TMPDIR", SCRATCH_ENV, OUTER_ENV] as const;
  const previous = names.map((name) => process.env[name]);
  process.env.TMPDIR = root;
  process.env[SCRATCH_ENV] = root;
  process.env[OUTER_ENV] = outer;
  let released = false;
  return {
    root,
    outer,
    release() {
      if (released) return;
      released = true;
      stopRunProcesses(root);
      fs.rmSync(root, { recursive: true, force: true });
      names.forEach((name, index) => {
        const value = previous[index];
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      });
    },
  };
}

/**
 * Removes the run's folder from a process that did not claim it but runs in the run (Playwright's
 * teardown: the claim was made while its config loaded).
 */
export function removeRunScratch(): void {
  const root = process.env[SCRATCH_ENV];
  if (!root) return;
  stopRunProcesses(root);
  fs.rmSync(root, { recursive: true, force: true });
}

/**
 * Ends (SIGKILL) every process the run started that is still alive: they all carry the run's
 * folder in their environment (SCRATCH_ENV), whatever started them — a test server left by a test
 * that timed out, a client script, a browser. This process and its own workers are spared (the
 * runner ends those itself). Returns the pids it ended. Linux only: elsewhere there is no /proc.
 */
export function stopRunProcesses(root: string): number[] {
  if (!fs.existsSync("/proc/self/environ")) return [];
  const marker = `${SCRATCH_ENV}=${root}`;
  const ended: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      const parent = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      if (parent === process.pid) continue;
      const environ = fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      if (!environ.includes(marker)) continue;
      process.kill(pid, "SIGKILL");
      ended.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return ended;
}

/** `claimScratch` for a script: the folder goes when the process exits, however it exits. */
export function claimScratchUntilExit(kind: string): Scratch {
  const scratch = claimScratch(kind);
  process.once("exit", () => scratch.release());
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      scratch.release();
      process.exit(128 + os.constants.signals[signal]);
    });
  }
  return scratch;
}
