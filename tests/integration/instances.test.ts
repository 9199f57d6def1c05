/**
 * Several processes on one PostgreSQL: two instances and a WEB_CONCURRENCY=2 server (a primary
 * with two workers) start together on an empty database, and a release published through one of
 * them shows on every other's /download at once, though each keeps its own page cache.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BROWSER_HEADERS, postForm, signUpVerified } from "../support/auth";
import { eventually } from "../support/eventually";
import { runScript } from "../support/cli";
import { createDatabase } from "../support/engines";
import { FAKE_KEYS, type FakeRazorpay, startFakeRazorpay } from "../support/fake-razorpay";
import { startServerProcess, type TestServerProcess } from "../support/server";

const postgresUrl = inject("postgresUrl");

/** A GET on a connection of its own, so the primary hands it to the next worker in turn. */
function getOnNewConnection(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: BROWSER_HEADERS }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
  });
}

function childPids(pid: number): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

// PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
describe.runIf(postgresUrl)("several processes on one PostgreSQL", () => {
  let servers: TestServerProcess[] = [];
  let pooled: TestServerProcess;
  let fake: FakeRazorpay;
  let env: Record<string, string>;

  beforeAll(async () => {
    // Several processes need the real provider's contract (the sandbox lives in one process).
    fake = await startFakeRazorpay();
    env = {
      DATABASE_URL: await createDatabase(postgresUrl, { migrated: false }),
      ADMIN_EMAILS: "ops@example.com",
      PAYMENTS_PROVIDER: "razorpay",
      RAZORPAY_API_URL: fake.url,
      RAZORPAY_KEY_ID: FAKE_KEYS.keyId,
      RAZORPAY_KEY_SECRET: FAKE_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: FAKE_KEYS.webhookSecret,
    };
    // All at once on an empty database: they take turns to migrate (an advisory lock).
    servers = await Promise.all([
      startServerProcess({ env }),
      startServerProcess({ env }),
      startServerProcess({ env: { ...env, WEB_CONCURRENCY: "2" } }),
    ]);
    pooled = servers[2]!;
    await eventually(
      async () => pooled.output().includes("all workers listening"),
      20_000,
      "both workers",
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await fake?.close();
  });

  it("starts every process on an empty database at the same time", async () => {
    for (const server of servers) {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
    }
    expect(childPids(pooled.process.pid!)).toHaveLength(2);
  });

  it("shows a release published through one process on every other's /download at once", async () => {
    const [a, b] = servers as [TestServerProcess, TestServerProcess];
    const ops = await signUpVerified(a, {
      name: "Ops",
      email: "ops@example.com",
      password: "several-processes-1",
    });
    const created = await postForm(a, "/admin/releases", ops, { intent: "token", name: "ci" });
    const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    expect(token).not.toBe("");

    // Every process stores /download without the release (both workers: a connection each).
    const everywhere = [b.url, pooled.url, pooled.url, pooled.url, pooled.url];
    for (const url of everywhere) {
      const page = await getOnNewConnection(`${url}/download`);
      expect(page.status).toBe(200);
      expect(page.body).not.toContain("8.8.8");
    }

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-instances-"));
    const files = ["Pinout-8.8.8.dmg", "Pinout-Setup-8.8.8.exe"].map((name, i) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, Buffer.alloc(40_000, i + 1));
      return ["--file", file];
    });
    const published = await runScript(
      "scripts/release-publish.ts",
      ["--version", "8.8.8", "--notes", "Everywhere.", "--site", a.url, "--token", token].concat(
        ...files,
      ),
      {},
    );
    expect(published.output).toContain("published 8.8.8");

    // The notice arrives within milliseconds; the stored pages would otherwise last 30 s.
    await eventually(
      async () => {
        const pages = await Promise.all(
          everywhere.map((url) => getOnNewConnection(`${url}/download`)),
        );
        return pages.every((page) => page.body.includes("8.8.8"));
      },
      5_000,
      "/download with 8.8.8 on every process",
    );
  });

  it("delivers mail asked through an instance without a job worker, to the outbox all share", async () => {
    // Which instance runs a mail job is a race; the test servers share an outbox per database
    // (tests/support/server.ts), so a test reads the mail whoever sent it. Without that, this
    // sign-up's verification mail would be in another process's folder.
    const quiet = await startServerProcess({ env: { ...env, JOBS_WORKER: "false" } });
    try {
      const cookie = await signUpVerified(quiet, {
        name: "Quiet",
        email: "quiet@example.com",
        password: "several-processes-2",
      });
      expect(cookie).toMatch(/session_token=/);
    } finally {
      await quiet.stop();
    }
  });

  it("replaces a worker that dies, and stops the workers with the primary", async () => {
    const [first] = childPids(pooled.process.pid!);
    process.kill(first!, "SIGKILL");
    // The new worker is replaced after a pause, then loads and listens: slow on a busy machine.
    await eventually(
      async () => {
        const pids = childPids(pooled.process.pid!);
        return (
          pids.length === 2 &&
          !pids.includes(first!) &&
          pids.every((pid) =>
            pooled
              .logs()
              .some((line) => line.pid === pid && String(line.msg).startsWith("listening on")),
          )
        );
      },
      30_000,
      "a new worker, listening",
    );
    for (let i = 0; i < 4; i++)
      expect((await getOnNewConnection(`${pooled.url}/pricing`)).status).toBe(200);
    expect(pooled.logs().some((line) => line.msg === "worker stopped: starting another")).toBe(
      true,
    );

    const workers = childPids(pooled.process.pid!);
    const { code } = await pooled.stop();
    expect(code).toBe(0);
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  });
});
