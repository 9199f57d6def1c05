import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import {
  claimScratch,
  SCRATCH_ENV,
  scratchName,
  stopRunProcesses,
  sweepStaleScratch,
} from "./scratch";

let outer: string;

beforeEach(() => {
  outer = fs.mkdtempSync(path.join(os.tmpdir(), "scratch-test-"));
});
afterEach(() => {
  fs.rmSync(outer, { recursive: true, force: true });
});

/** A pid that no process has: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], {
    encoding: "utf8",
  });
  return Number(child.stdout.trim());
}

describe("the run's temporary folder", () => {
  it("is where this test run writes: the global setup claimed it for every worker", () => {
    const root = inject("scratchRoot");
    expect(root).toMatch(/pinout-run-vitest-\d+$/);
    expect(os.tmpdir()).toBe(root);
    expect(process.env[SCRATCH_ENV]).toBe(root);
    expect(fs.existsSync(root)).toBe(true);
  });

  it("takes what the process and the children it starts write, and removes all of it on release", async () => {
    const before = os.tmpdir();
    const scratch = claimScratch("unit", outer);
    try {
      expect(os.tmpdir()).toBe(scratch.root);
      const own = fs.mkdtempSync(path.join(os.tmpdir(), "own-"));
      fs.writeFileSync(path.join(own, "file"), "x");
      // A child inherits TMPDIR as the test servers, clusters and browsers do.
      const written = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            "-e",
            "const fs=require('fs'),os=require('os'),p=require('path');const d=fs.mkdtempSync(p.join(os.tmpdir(),'child-'));fs.writeFileSync(p.join(d,'f'),'y');console.log(d)",
          ],
          { stdio: ["ignore", "pipe", "inherit"] },
        );
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
        child.once("exit", (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(out))));
      });
      expect(path.dirname(written)).toBe(scratch.root);
    } finally {
      scratch.release();
    }
    expect(fs.existsSync(scratch.root)).toBe(false);
    expect(fs.readdirSync(outer)).toEqual([]);
    expect(os.tmpdir()).toBe(before);
    scratch.release();
  });

  it("removes the folders of runs whose process is gone, and keeps live runs and everything else", () => {
    const dead = scratchName("vitest", deadPid());
    const live = scratchName("e2e", process.ppid);
    for (const name of [dead, live, "pinout-e2e-4317", "pinout-run-notes", "other"]) {
      fs.mkdirSync(path.join(outer, name));
      fs.writeFileSync(path.join(outer, name, "file"), "x");
    }
    expect(sweepStaleScratch(outer)).toEqual([dead]);
    expect(fs.readdirSync(outer).sort()).toEqual(
      [live, "other", "pinout-e2e-4317", "pinout-run-notes"].sort(),
    );
  });

  it("sweeps a killed run's folder when the next run claims its own", () => {
    const killed = scratchName("bench-http", deadPid());
    fs.mkdirSync(path.join(outer, killed, "pinout-data-abc"), { recursive: true });
    const scratch = claimScratch("unit", outer);
    scratch.release();
    expect(fs.existsSync(path.join(outer, killed))).toBe(false);
  });

  it("refuses a kind that could name another folder", () => {
    expect(() => scratchName("../x", 1)).toThrow(/kind/);
    expect(() => scratchName("A", 1)).toThrow(/kind/);
  });
});

describe("the end of a run", () => {
  it("ends every process that carries the run's folder, however deep, and no other", async () => {
    const root = path.join(outer, scratchName("unit", process.pid));
    // A process started by a child (as a test server is started by a test worker) that ignores
    // SIGTERM, as the server blocked on its log pipe did; and one of another run.
    const start = (scratchRoot: string) => {
      const shell = spawn(
        "sh",
        [
          "-c",
          `${process.execPath} -e "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)" & echo $!; wait`,
        ],
        {
          env: { ...process.env, [SCRATCH_ENV]: scratchRoot },
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      return new Promise<{ shell: typeof shell; pid: number }>((resolve) =>
        shell.stdout.once("data", (chunk: Buffer) =>
          resolve({ shell, pid: Number(chunk.toString().trim()) }),
        ),
      );
    };
    const ours = await start(root);
    const theirs = await start(`${root}-other`);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      expect(alive(ours.pid)).toBe(true);
      expect(stopRunProcesses(root)).toContain(ours.pid);
      await new Promise((resolve) => ours.shell.once("exit", resolve));
      expect(alive(ours.pid)).toBe(false);
      expect(alive(theirs.pid)).toBe(true);
    } finally {
      for (const pid of [ours.pid, theirs.pid]) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
