/**
 * The embedded site's memory (issue 35, point 2; decision 0051): the server process, on a new
 * data folder as a newcomer starts it, stays under 256 MB of resident memory at rest and under
 * 384 MB after a mixed load of public and signed-in pages. A process, because resident memory is
 * the operating system's figure for one. `npm run bench:http` reports the same figures for its
 * longer load.
 */
import http from "node:http";
import { describe, expect, it } from "vitest";
import { PUBLIC_PAGES } from "../../scripts/lib/bench-site";
import { EMBEDDED_IDLE_LIMIT_MB, EMBEDDED_LOAD_LIMIT_MB, rssMb } from "../../scripts/lib/footprint";
import { signUpVerified } from "../support/auth";
import { startServerProcess, tempDataDir } from "../support/server";

const SIGNED_IN_PAGES = ["/account", "/account/usage", "/billing"];
/**
 * The fixed load: this many requests, this many at a time, public and signed-in pages in turn.
 * Enough for V8's default heap policy to take the site over 384 MB (about 410 MB measured with
 * server.js's setting removed, decision 0051); fewer requests would pass either way.
 */
const LOAD_REQUESTS = 12_000;
const LOAD_CONCURRENCY = 50;

describe("embedded footprint", () => {
  it("stays under 256 MB at rest after a first start and under 384 MB after a mixed load", async () => {
    const server = await startServerProcess({ dataDir: tempDataDir() });
    try {
      const pid = server.process.pid ?? 0;
      const rss = () => rssMb(pid);
      // Read from outside the process, so polled: memory freed by start-up goes back at the
      // process's next garbage collection.
      await expect
        .poll(rss, { timeout: 20_000, interval: 500, message: "resident MB at rest" })
        .toBeLessThan(EMBEDDED_IDLE_LIMIT_MB);

      const cookie = await signUpVerified(server, {
        name: "Measured",
        email: "measured@example.com",
        password: "measured-password-123",
      });
      const targets = [
        ...PUBLIC_PAGES.map((page) => ({ page, headers: {} as Record<string, string> })),
        ...SIGNED_IN_PAGES.map((page) => ({ page, headers: { cookie } })),
      ];
      // node:http with an agent of its own, closed after the load: cheaper than fetch for the
      // test's side of the load, and no kept-alive socket outlives the test.
      const agent = new http.Agent({ keepAlive: true, maxSockets: LOAD_CONCURRENCY });
      const get = (target: (typeof targets)[number]) =>
        new Promise<number>((resolve, reject) => {
          const request = http.get(
            `${server.url}${target.page}`,
            { agent, headers: target.headers },
            (response) => {
              response.resume();
              response.on("end", () => resolve(response.statusCode ?? 0));
              response.on("error", reject);
            },
          );
          request.on("error", reject);
        });
      let next = 0;
      const statuses = new Map<number, number>();
      try {
        await Promise.all(
          Array.from({ length: LOAD_CONCURRENCY }, async () => {
            while (next < LOAD_REQUESTS) {
              const status = await get(targets[next++ % targets.length]!);
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
            }
          }),
        );
      } finally {
        agent.destroy();
      }
      // Every page answered: a load of errors would measure nothing.
      expect(Object.fromEntries(statuses)).toEqual({ 200: LOAD_REQUESTS });
      await expect
        .poll(rss, { timeout: 20_000, interval: 500, message: "resident MB after the load" })
        .toBeLessThan(EMBEDDED_LOAD_LIMIT_MB);
    } finally {
      await server.stop();
    }
    // Its own limit: the load takes 70-85 s on the 2-core machine beside two other test files,
    // within 10 % of the suite's 90 s, so a busy machine failed it (issue 38: a limit at least
    // three times a test's usual time).
  }, 300_000);
});
