/**
 * The embedded site's memory limits (issue 35, point 2; decision 0051), shared by the test that
 * fails above them (tests/integration/footprint.test.ts) and `npm run bench:http`, which reports
 * the same figures for the bench's longer load.
 */
import fs from "node:fs";

/** Resident memory of the server process with the embedded database, idle after it starts. */
export const EMBEDDED_IDLE_LIMIT_MB = 256;
/** The same, after a mixed load of public and signed-in pages. */
export const EMBEDDED_LOAD_LIMIT_MB = 384;

/** A process's resident memory in MB, from /proc (Linux); 0 once it has gone. */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}
