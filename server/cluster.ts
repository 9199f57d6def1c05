/**
 * WEB_CONCURRENCY > 1: this process becomes a primary that forks that many workers, each running
 * the whole server (`start()`) on the same port; node:cluster hands each new connection to one of
 * them. A process renders one page at a time, so this is how one machine uses its cores. The
 * workers share nothing but PostgreSQL, exactly like separate instances (decision record 0025).
 */
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "~/.server/logger";

/** The message a worker's server.js treats as SIGTERM (a signal could be its second one). */
export const SHUTDOWN_MESSAGE = "pinout:shutdown";

/** A worker that served before and then died is replaced after this pause. */
const RESTART_DELAY_MS = 1_000;

export interface Primary {
  shutdown(reason: string): Promise<void>;
}

/**
 * Forks `count` workers and resolves once all of them listen. A worker that stops before it
 * listens is a start-up failure (bad configuration, database away): the others are stopped and the
 * promise rejects, so the process ends as a single server would. One that stops later is replaced.
 */
export function startWorkers(count: number, log: Logger): Promise<Primary> {
  const listened = new Set<number>();
  let stopping = false;
  let settled = false;

  const stopAll = async () => {
    const alive = Object.values(cluster.workers ?? {}).filter(
      (worker): worker is Worker => worker !== undefined && !worker.isDead(),
    );
    await Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once("exit", () => resolve());
            if (worker.isConnected()) worker.send(SHUTDOWN_MESSAGE);
            else worker.process.kill("SIGTERM");
          }),
      ),
    );
  };

  const primary: Primary = {
    shutdown: async (reason) => {
      stopping = true;
      log.info({ reason, workers: count }, "stopping the workers");
      await stopAll();
      log.info("stopped");
    },
  };

  return new Promise<Primary>((resolve, reject) => {
    cluster.on("listening", (worker) => {
      listened.add(worker.id);
      if (!settled && listened.size >= count) {
        settled = true;
        log.info({ workers: count }, "all workers listening");
        resolve(primary);
      }
    });
    cluster.on("exit", (worker, code, signal) => {
      if (stopping) return;
      if (!listened.has(worker.id)) {
        stopping = true;
        void stopAll().then(() =>
          reject(new Error(`a worker stopped while starting (exit code ${code ?? signal})`)),
        );
        return;
      }
      log.error({ pid: worker.process.pid, code, signal }, "worker stopped: starting another");
      setTimeout(() => {
        if (!stopping) cluster.fork();
      }, RESTART_DELAY_MS).unref();
    });
    for (let i = 0; i < count; i++) cluster.fork();
  });
}
