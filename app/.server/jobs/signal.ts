/**
 * The running job's AbortSignal, for the calls that leave the process (Razorpay's REST client,
 * SMTP) to honour without every domain function passing it along: the worker runs each handler
 * inside `runWithJobSignal`, and those calls combine `jobSignal()` with their own time-outs.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<AbortSignal>();

export function runWithJobSignal<T>(signal: AbortSignal, work: () => T): T {
  return scope.run(signal, work);
}

/** The signal of the job this code runs for, if any (none on a request's path). */
export function jobSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/** A time-out of `ms`, also aborted when the running job is (its time limit, a lost lease). */
export function boundedSignal(ms: number): AbortSignal {
  const job = jobSignal();
  const timeout = AbortSignal.timeout(ms);
  return job ? AbortSignal.any([timeout, job]) : timeout;
}
