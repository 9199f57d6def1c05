import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_HEADERS, getWithCookies, signUpVerified } from "../support/auth";
import { desktopHandoff, exchangeHandoff } from "../support/desktop";
import { eventually } from "../support/eventually";
import { textOf } from "../support/pages";
import { createDatabase } from "../support/engines";
import { type Cluster, findPostgresBin, startCluster } from "../support/postgres";
import { type RunningTestServer, startServer } from "../support/server";

const bin = findPostgresBin();

/**
 * Issue 9, point 22: the PostgreSQL server stops while the site runs, then comes back. Needs the
 * server binaries (its own cluster, so the other tests' database stays up); CI installs them.
 */
describe.runIf(bin || process.env.CI)("database outage on PostgreSQL", () => {
  let cluster: Cluster;
  let server: RunningTestServer;
  let cookie = "";
  let databaseUrl = "";
  let device = { access_token: "", refresh_token: "" };

  beforeAll(async () => {
    if (!bin) throw new Error("CI needs the PostgreSQL server binaries for the outage test.");
    cluster = await startCluster(bin);
    databaseUrl = await createDatabase(cluster.url);
    server = await startServer({ env: { DATABASE_URL: databaseUrl } });
    cookie = await signUpVerified(server, {
      name: "Outage",
      email: "outage@example.com",
      password: "outage-password-1",
    });
    const exchanged = await exchangeHandoff(server, await desktopHandoff(server, cookie), "Mac");
    device = (await exchanged.json()) as typeof device;
  });
  afterAll(async () => {
    await server?.stop();
    cluster?.stop();
  });

  it("answers 503 for what needs the database, keeps public pages up, and recovers by itself", async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect((await getWithCookies(server, "/account", cookie)).status).toBe(200);

    cluster.pause();
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
      const account = await getWithCookies(server, "/account", cookie);
      expect(account.status).toBe(503);
      expect(account.headers.get("retry-after")).toBe("30");
      const html = await account.text();
      expect(html).toContain("<title>Service Unavailable");
      expect(textOf(html)).toContain("try again in a minute");
      const data = await getWithCookies(server, "/account.data", cookie);
      expect(data.status).toBe(503);
      // Issue 32, point 3: the desktop API (its fast path too) and the rest of /api say the
      // same in JSON, the app's language, never a 500.
      const apiCalls: [string, () => Promise<Response>][] = [
        [
          "GET /api/desktop/me",
          () =>
            fetch(`${server.url}/api/desktop/me`, {
              headers: { authorization: `Bearer ${device.access_token}` },
            }),
        ],
        [
          "POST /api/desktop/refresh",
          () =>
            fetch(`${server.url}/api/desktop/refresh`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ refresh_token: device.refresh_token }),
            }),
        ],
        ["GET /api/session", () => getWithCookies(server, "/api/session", cookie)],
      ];
      for (const [name, call] of apiCalls) {
        const response = await call();
        expect(response.status, name).toBe(503);
        expect(response.headers.get("retry-after"), name).toBe("30");
        expect(response.headers.get("cache-control"), name).toContain("no-store");
        expect(response.headers.get("content-type"), name).toMatch(/^application\/json/);
        expect(await response.json(), name).toMatchObject({ error: "service_unavailable" });
      }
      for (const path of ["/", "/pricing", "/blog", "/legal/privacy", "/about"]) {
        const page = await fetch(server.url + path, { headers: BROWSER_HEADERS });
        expect(page.status, path).toBe(200);
      }
    } finally {
      cluster.resume();
    }

    // No restart: the pool reconnects on the next request.
    let ready = 0;
    for (let attempt = 0; attempt < 50 && ready !== 200; attempt += 1) {
      ready = (await fetch(`${server.url}/readyz`)).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ready).toBe(200);
    expect((await getWithCookies(server, "/account", cookie)).status).toBe(200);
    const me = await fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${device.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(server.output()).not.toMatch(/uncaughtException|unhandledRejection/);
  });

  it("follows other processes' content changes again once the database is back", async () => {
    // The shared cache answers with an ETag; a page rendered anew has none.
    const rendered = async () =>
      (await fetch(`${server.url}/pricing`, { headers: BROWSER_HEADERS })).headers.get("etag") ===
      null;
    const announce = new pg.Client({ connectionString: databaseUrl });
    await announce.connect();
    try {
      // Back from the outage, the listener's new connection forgets what may have been missed.
      await eventually(rendered, 10_000, "a render after the reconnection");
      // Stored again (the copy is kept a moment after the response is sent).
      await eventually(async () => !(await rendered()), 5_000, "the page stored again");
      expect(await rendered()).toBe(false);
      // What a release published by another instance announces.
      await announce.query("select pg_notify('pinout_public_content', 'another-process')");
      await eventually(rendered, 5_000, "a render after the notice");
    } finally {
      await announce.end();
    }
  });
});
