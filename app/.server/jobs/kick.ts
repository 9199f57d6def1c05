/**
 * "Work was just enqueued here: run it now rather than at the next poll." A leaf that imports
 * nothing of the domains: every domain that enqueues work calls `kickJobs`, and importing the
 * worker (`jobs/index.ts`, which loads every job's handler through the registry) from them closed
 * an import circle through the whole application. The worker registers itself when it starts.
 */
let wake: (() => void) | undefined;

/** Called by the worker when it starts (with its kick) and stops (with nothing). */
export function setJobKick(kick: (() => void) | undefined): void {
  wake = kick;
}

export function kickJobs(): void {
  wake?.();
}
