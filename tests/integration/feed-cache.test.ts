/**
 * The update feeds answer from releases kept in memory (docs/decisions/0031), yet a release
 * published, paused or pulled, or a minimum version set, changes every feed at once: in the
 * process that made the change, and through NOTIFY in every other process on the same PostgreSQL.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parse } from "yaml";
import { BROWSER_HEADERS, postForm, signUpVerified } from "../support/auth";
import { eventually } from "../support/eventually";
import { runScript } from "../support/cli";
import { createDatabase, engines } from "../support/engines";
import { FAKE_KEYS, type FakeRazorpay, startFakeRazorpay } from "../support/fake-razorpay";
import { type RunningTestServer, startServer, startServerProcess } from "../support/server";

const SECRET = "integration-test-secret-0123456789abcdef";
const [OLD, NEW] = ["4.0.0", "4.1.0"];
/** The app version the Tauri polls report: older than both releases. */
const RUNNING = "3.9.0";

function releaseFiles(version: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-feed-files-"));
  const files: [string, Buffer | string][] = [
    [`Pinout-${version}.dmg`, Buffer.alloc(20_000, 1)],
    [`Pinout-${version}-mac.zip`, Buffer.alloc(10_000, 2)],
    [`Pinout-${version}.app.tar.gz`, Buffer.alloc(10_000, 3)],
    [
      `Pinout-${version}.app.tar.gz.sig`,
      `untrusted comment: signature ${version}\nRUQ${version}==`,
    ],
  ];
  return files.flatMap(([name, body]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, body);
    return ["--file", file];
  });
}

/** A GET on a connection of its own, so a primary hands it to the next worker in turn. */
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

interface FeedView {
  electron: string;
  sparkle: string;
  tauriStatic: string;
  /** The version Tauri's dynamic endpoint offers an app of RUNNING, or "none" (204). */
  tauri: string;
  critical: boolean;
}

/** What one process's feeds offer right now. */
async function feedsOf(baseUrl: string): Promise<FeedView> {
  const [electron, sparkle, tauriStatic, tauri] = await Promise.all(
    [
      "/updates/stable/latest-mac.yml",
      "/updates/stable/appcast.xml",
      "/updates/stable/tauri.json",
      `/updates/tauri/darwin/aarch64/${RUNNING}`,
    ].map((pathname) => getOnNewConnection(baseUrl + pathname)),
  );
  const dynamic =
    tauri?.status === 200
      ? (JSON.parse(tauri.body) as { version: string; critical?: boolean })
      : null;
  return {
    electron: (parse(electron?.body ?? "") as { version: string }).version,
    sparkle: /<sparkle:version>([^<]+)<\/sparkle:version>/.exec(sparkle?.body ?? "")?.[1] ?? "",
    tauriStatic: (JSON.parse(tauriStatic?.body ?? "{}") as { version: string }).version,
    tauri: dynamic?.version ?? "none",
    critical: dynamic?.critical === true,
  };
}

const offering = (version: string, critical = false): FeedView => ({
  electron: version,
  sparkle: version,
  tauriStatic: version,
  tauri: version,
  critical,
});

/** Signs the admin up, makes a publishing token; the cookie and the token. */
async function adminOf(server: RunningTestServer, email: string) {
  const cookie = await signUpVerified(server, { name: "Ops", email, password: "feed-cache-pw-1" });
  const created = await postForm(server, "/admin/releases", cookie, { intent: "token", name: "t" });
  const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
  expect(token).not.toBe("");
  return { cookie, token };
}

async function publish(server: RunningTestServer, token: string, version: string) {
  const result = await runScript(
    "scripts/release-publish.ts",
    ["--version", version, "--notes", `Notes of ${version}.`, "--site", server.url]
      .concat(["--token", token])
      .concat(releaseFiles(version)),
    {},
  );
  expect(result.output).toContain(`published ${version}`);
}

async function changeRelease(
  server: RunningTestServer,
  token: string,
  version: string,
  change: Record<string, unknown>,
) {
  const headers = { Authorization: `Bearer ${token}` };
  const list = (await (await fetch(`${server.url}/api/admin/releases`, { headers })).json()) as {
    releases: { id: string; version: string }[];
  };
  const id = list.releases.find((release) => release.version === version)?.id ?? "";
  const response = await fetch(`${server.url}/api/admin/releases/${id}`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(change),
  });
  expect(response.status).toBe(200);
}

async function setMinimum(server: RunningTestServer, cookie: string, version: string) {
  const form = await postForm(server, "/admin/releases", cookie, {
    intent: "minimum",
    platform: "mac",
    version,
  });
  expect(form.status).toBe(200);
}

describe.each(engines())("update feeds follow release changes at once on $name", (engine) => {
  let server: RunningTestServer;
  let admin: { cookie: string; token: string };

  beforeAll(async () => {
    server = await startServer({
      env: {
        DATABASE_URL: await engine.freshDatabaseUrl(),
        BETTER_AUTH_SECRET: SECRET,
        ADMIN_EMAILS: "ops@example.com",
      },
    });
    admin = await adminOf(server, "ops@example.com");
    await publish(server, admin.token, OLD);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("offers a release published, paused, pulled or made the minimum with the next poll", async () => {
    // Each poll below answers from memory; each change must replace what it remembered.
    expect(await feedsOf(server.url)).toEqual(offering(OLD));
    await publish(server, admin.token, NEW);
    expect(await feedsOf(server.url)).toEqual(offering(NEW));
    await changeRelease(server, admin.token, NEW, { action: "pause" });
    expect(await feedsOf(server.url)).toEqual(offering(OLD));
    await changeRelease(server, admin.token, NEW, { action: "resume" });
    expect(await feedsOf(server.url)).toEqual(offering(NEW));
    await setMinimum(server, admin.cookie, NEW);
    expect(await feedsOf(server.url)).toEqual(offering(NEW, true));
    await changeRelease(server, admin.token, NEW, { action: "pull" });
    expect(await feedsOf(server.url)).toEqual(offering(OLD, true));
    await setMinimum(server, admin.cookie, "");
    expect(await feedsOf(server.url)).toEqual(offering(OLD));
  });
});

const postgresUrl = inject("postgresUrl");

// PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
describe.runIf(postgresUrl)("update feeds of several processes on one PostgreSQL", () => {
  let servers: RunningTestServer[] = [];
  let fake: FakeRazorpay;

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    const env = {
      DATABASE_URL: await createDatabase(postgresUrl),
      ADMIN_EMAILS: "ops@example.com",
      PAYMENTS_PROVIDER: "razorpay",
      RAZORPAY_API_URL: fake.url,
      RAZORPAY_KEY_ID: FAKE_KEYS.keyId,
      RAZORPAY_KEY_SECRET: FAKE_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: FAKE_KEYS.webhookSecret,
    };
    servers = await Promise.all([
      startServerProcess({ env }),
      startServerProcess({ env: { ...env, WEB_CONCURRENCY: "2" } }),
    ]);
    await eventually(
      async () => servers[1]!.output().includes("all workers listening"),
      20_000,
      "both workers",
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await fake?.close();
  });

  it("changes the feeds of the other instance and of both its workers", async () => {
    const [single, pooled] = servers as [RunningTestServer, RunningTestServer];
    const admin = await adminOf(single, "ops@example.com");
    await publish(single, admin.token, OLD);
    // Both workers of the pooled server take turns: four polls reach each of them twice.
    const everywhere = [single.url, pooled.url, pooled.url, pooled.url, pooled.url];
    const allOffer = async (view: FeedView) => {
      const views = await Promise.all(everywhere.map(feedsOf));
      return views.every((seen) => JSON.stringify(seen) === JSON.stringify(view));
    };
    // Every process remembers OLD for the next 30 s unless it is told of a change.
    await eventually(() => allOffer(offering(OLD)), 5_000, `${OLD} everywhere`);

    // The notice arrives within milliseconds; without it the memory would last 30 s.
    await publish(single, admin.token, NEW);
    await eventually(() => allOffer(offering(NEW)), 5_000, `${NEW} everywhere`);
    await changeRelease(pooled, admin.token, NEW, { action: "pause" });
    await eventually(() => allOffer(offering(OLD)), 5_000, `${OLD} after the pause`);
    await changeRelease(single, admin.token, NEW, { action: "resume" });
    await setMinimum(pooled, admin.cookie, NEW);
    await eventually(() => allOffer(offering(NEW, true)), 5_000, `${NEW}, critical`);
    await changeRelease(pooled, admin.token, NEW, { action: "pull" });
    await eventually(() => allOffer(offering(OLD, true)), 5_000, `${OLD} after the pull`);
  });
});
