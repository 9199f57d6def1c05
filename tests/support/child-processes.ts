import type { ChildProcess } from "node:child_process";

/**
 * The server processes tests started in this worker that are still running. One set per process
 * (on globalThis): a worker runs file after file and loads the test helpers afresh for each
 * (fresh-modules.ts), and a process one file leaves must still be found.
 */
export function childProcesses(): Set<ChildProcess> {
  const registry = globalThis as { pinoutChildProcesses?: Set<ChildProcess> };
  if (!registry.pinoutChildProcesses) {
    const running = new Set<ChildProcess>();
    registry.pinoutChildProcesses = running;
    // However the worker ends (its last file done, a time-out, a crash of the runner).
    process.once("exit", () => killChildProcesses());
  }
  return registry.pinoutChildProcesses;
}

/** SIGKILLs every server process still running: a file's own teardown stops them first. */
export function killChildProcesses(): void {
  const running = childProcesses();
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}
