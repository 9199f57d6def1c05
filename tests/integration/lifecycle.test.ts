import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { authPost, signUpVerified } from "../support/auth";
import { startServerProcess, tempDataDir } from "../support/server";

/** A GET that records whether the whole response arrived. */
function fullGet(url: string): Promise<{ status: number; complete: boolean } | { refused: true }> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, complete: body.trimEnd().endsWith("</html>") }),
      );
      response.on("error", () => resolve({ status: response.statusCode ?? 0, complete: false }));
      response.on("aborted", () => resolve({ status: response.statusCode ?? 0, complete: false }));
    });
    let responded = false;
    request.on("response", () => (responded = true));
    request.on("error", (error: NodeJS.ErrnoException) => {
      // Once the listener closes, new connections are refused, and ones still waiting in the
      // kernel's accept queue are reset before any byte of a response: neither is cut mid-way.
      if (!responded && (error.code === "ECONNREFUSED" || error.code === "ECONNRESET")) {
        resolve({ refused: true });
      } else resolve({ status: 0, complete: false });
    });
  });
}

// Processes: the lock names a process id, signals end processes, start-up failures exit.
describe("server lifecycle (embedded database)", () => {
  it("refuses a second server on the same DATA_DIR and keeps the first one serving", async () => {
    const first = await startServerProcess();
    try {
      // Something worth keeping: an account, created before the second server tries to start.
      await signUpVerified(first, {
        name: "Kept",
        email: "kept@example.com",
        password: "kept-password-123",
      });
      const lockFile = path.join(first.dataDir, "db.lock");
      expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(first.process.pid));

      const second = await startServerProcess({ dataDir: first.dataDir, expectExit: true });
      const { code } = await second.stop();
      expect(code).toBe(1);
      expect(second.output()).toContain(
        `database at ${path.join(first.dataDir, "db")} is in use by process ${first.process.pid}`,
      );

      // The first still owns the lock and serves from an intact database.
      expect(fs.readFileSync(lockFile, "utf8").trim()).toBe(String(first.process.pid));
      const ready = await fetch(`${first.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ok: true, database: "reachable" });
      expect((await fetch(`${first.url}/`)).status).toBe(200);
      // Still there: the account signs in.
      const signIn = await authPost(first, "/sign-in/email", {
        email: "kept@example.com",
        password: "kept-password-123",
      });
      expect(signIn.status).toBe(200);
    } finally {
      await first.stop();
    }
  });

  it("releases the lock on exit and takes over a lock left by a dead process", async () => {
    const dataDir = tempDataDir();
    const first = await startServerProcess({ dataDir });
    // (Its memory after this first start: tests/integration/footprint.test.ts.)
    const { code } = await first.stop();
    expect(code, first.output().slice(-2000)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "db.lock")), first.output().slice(-2000)).toBe(false);

    // A crashed server leaves its lock file behind; pid 2^22+1 is above Linux's pid_max default.
    fs.writeFileSync(path.join(dataDir, "db.lock"), "4194305\n");
    const second = await startServerProcess({ dataDir });
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    await second.stop();
  });

  it("on SIGTERM under load finishes in-flight responses and exits within 5 s", async () => {
    const server = await startServerProcess();
    const url = `${server.url}/`;
    type Result = Awaited<ReturnType<typeof fullGet>>;
    const results: Promise<Result>[] = [];
    let sending = true;
    // Steady load from 8 parallel clients until the server stops listening.
    const clients = Array.from({ length: 8 }, async () => {
      while (sending) {
        const result = fullGet(url);
        results.push(result);
        if ("refused" in (await result)) return;
      }
    });
    await expect
      .poll(() => server.logs().filter((line) => line.msg === "request").length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(10);

    const { code, ms } = await server.stop("SIGTERM");
    sending = false;
    await Promise.all(clients);
    const settled = await Promise.all(results);

    expect(code).toBe(0);
    expect(ms).toBeLessThan(5_000);
    const answered = settled.filter((result) => !("refused" in result));
    expect(answered.length).toBeGreaterThan(5);
    for (const result of answered) expect(result).toEqual({ status: 200, complete: true });
    expect(server.logs().some((line) => line.msg === "stopped")).toBe(true);
    // The start-up line names the address to open: SITE_URL, where cookies and mailed links live.
    const listening = server.logs().find((line) => String(line.msg).startsWith("listening on"));
    expect(listening?.msg).toBe(
      `listening on http://127.0.0.1:${new URL(server.url).port}; open ${server.url}`,
    );
  });

  it("stops with a message naming a wrong variable", async () => {
    const server = await startServerProcess({
      env: { PORT: "not-a-port", SITE_URL: "ftp://example.com" },
      expectExit: true,
    });
    const { code } = await server.stop();
    expect(code).toBe(1);
    expect(server.output()).toContain("PORT");
    expect(server.output()).toContain("SITE_URL");
  });
});
