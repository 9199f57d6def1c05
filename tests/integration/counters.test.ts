/**
 * Download, update-check and app-version counts are kept in memory and written in batches
 * (docs/decisions/0030): what /admin shows after a flush is exactly what was requested, a
 * SIGTERM writes what was still in memory, and instances sharing one PostgreSQL add up.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BROWSER_HEADERS, getWithCookies, postForm, signUpVerified } from "../support/auth";
import { eventually } from "../support/eventually";
import { runScript } from "../support/cli";
import { createDatabase, engines } from "../support/engines";
import { FAKE_KEYS, type FakeRazorpay, startFakeRazorpay } from "../support/fake-razorpay";
import { tableRows } from "../support/html";
import {
  type RunningTestServer,
  startServer,
  startServerProcess,
  startedDataDir,
  tempDataDir,
} from "../support/server";

const SECRET = "integration-test-secret-0123456789abcdef";
const VERSION = "3.0.0";
/**
 * The version the Tauri checks report. It is no release of ours, so it is counted in the one
 * `other` row of the app versions in use (issue 32, point 2), never a row of its own.
 */
const REPORTED = "0.9.1";
const OTHER = "other";
const N = 40;

/** A release with a Mac installer, Squirrel.Mac's zip and Tauri's archive with its signature. */
function releaseFiles(): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-counter-files-"));
  const files: [string, Buffer | string][] = [
    [`Pinout-${VERSION}.dmg`, Buffer.alloc(20_000, 3)],
    [`Pinout-${VERSION}-mac.zip`, Buffer.alloc(10_000, 4)],
    [`Pinout-${VERSION}.app.tar.gz`, Buffer.alloc(10_000, 5)],
    [`Pinout-${VERSION}.app.tar.gz.sig`, `untrusted comment: signature\nRUQcounters==`],
  ];
  return files.map(([name, body]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, body);
    return file;
  });
}

/** A GET on a connection of its own, so a primary hands it to the next worker in turn. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: BROWSER_HEADERS }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", reject);
  });
}

/** Every request that counts, `times` times each, 10 at a time; each must succeed. */
async function sendCountedRequests(baseUrl: string, times: number): Promise<void> {
  const paths = [
    "/updates/stable/latest-mac.yml", // an update check of VERSION (mac)
    "/updates/stable/appcast.xml", // an update check of VERSION (mac)
    `/updates/tauri/darwin/aarch64/${REPORTED}`, // an app version report and an update check
    "/download/mac", // a download of the installer
  ];
  const all = Array.from({ length: times }, () => paths).flat();
  for (let start = 0; start < all.length; start += 10) {
    const batch = all.slice(start, start + 10);
    const statuses = await Promise.all(
      batch.map(async (pathname) => `${pathname} ${await getOnNewConnection(baseUrl + pathname)}`),
    );
    expect(statuses).toEqual(batch.map((pathname) => `${pathname} 200`));
  }
}

interface Counts {
  downloads: number;
  updateChecks: number;
  downloadsToday: number;
  macDownloads: number;
  reportedVersion: number;
}

/** What the admin pages show for VERSION and REPORTED. */
async function adminCounts(server: RunningTestServer, cookie: string): Promise<Counts> {
  const number = (text: string | undefined) => Number((text ?? "0").replace(/,/g, ""));
  const releases = await getWithCookies(server, "/admin/releases", cookie);
  expect(releases.status).toBe(200);
  const releaseRow = tableRows(await releases.text(), "Update checks").find(
    (cells) => cells[0] === VERSION,
  );
  const dashboard = await getWithCookies(server, "/admin", cookie);
  expect(dashboard.status).toBe(200);
  const html = await dashboard.text();
  const days = tableRows(html, "Downloads per day").slice(1);
  const platforms = tableRows(html, "Downloads per platform of version");
  const versions = tableRows(html, "App versions in use");
  return {
    downloads: number(releaseRow?.[4]),
    updateChecks: number(releaseRow?.[5]),
    downloadsToday: number(days.at(-1)?.[1]),
    macDownloads: number(platforms.find((cells) => cells[0] === "macOS")?.[1]),
    reportedVersion: versions.some((cells) => cells[0] === REPORTED)
      ? Number.NaN
      : number(versions.find((cells) => cells[0] === OTHER)?.[1]),
  };
}

/** The counts as the admin pages' queries read them from a stopped server's database. */
async function storedCounts(dataDir: string, databaseUrl: string | undefined): Promise<Counts> {
  const { openDatabase } = await import("~/.server/db/client");
  const { releaseAssets } = await import("~/.server/db/schema");
  const { activeVersionShare, countsPerVersion, downloadsPerDay } =
    await import("~/.server/releases/stats.server");
  const handle = await openDatabase({ dataDir, databaseUrl });
  try {
    const perVersion = (await countsPerVersion(handle.db)).get(VERSION);
    const assets = await handle.db.select().from(releaseAssets);
    return {
      downloads: perVersion?.downloads ?? 0,
      updateChecks: perVersion?.updateChecks ?? 0,
      downloadsToday: (await downloadsPerDay(1, handle.db))[0]?.downloads ?? 0,
      macDownloads:
        assets.find((asset) => asset.fileName === `Pinout-${VERSION}.dmg`)?.downloadCount ?? 0,
      reportedVersion:
        (await activeVersionShare(handle.db)).find((row) => row.version === OTHER)?.count ?? 0,
    };
  } finally {
    await handle.close();
  }
}

/** What `times` rounds of sendCountedRequests add up to. */
const expected = (times: number): Counts => ({
  downloads: times,
  updateChecks: 3 * times,
  downloadsToday: times,
  macDownloads: times,
  reportedVersion: times,
});

describe.each(engines())("batched counters on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  let boss = "";

  const start = (flushMs: string) =>
    startServer({
      dataDir,
      env: {
        DATABASE_URL: databaseUrl,
        BETTER_AUTH_SECRET: SECRET,
        ADMIN_EMAILS: "boss@example.com",
        STATS_FLUSH_MS: flushMs,
      },
    });

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    server = await start("200");
    boss = await signUpVerified(server, {
      name: "Boss",
      email: "boss@example.com",
      password: "counters-password-1",
    });
    const created = await postForm(server, "/admin/releases", boss, {
      intent: "token",
      name: "counters",
    });
    const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    expect(token).not.toBe("");
    const files = releaseFiles().flatMap((file) => ["--file", file]);
    const published = await runScript(
      "scripts/release-publish.ts",
      [
        "--version",
        VERSION,
        "--notes",
        "Counted.",
        "--site",
        server.url,
        "--token",
        token,
        ...files,
      ],
      {},
    );
    expect(published.output).toContain(`published ${VERSION}`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows exactly the checks, downloads and app versions sent, once a flush has run", async () => {
    expect(await adminCounts(server, boss)).toEqual(expected(0));
    await sendCountedRequests(server.url, N);
    // Flushes every 200 ms: wait until the last count is in, then nothing may be missing or extra.
    const shown = await eventually(
      async () => {
        const counts = await adminCounts(server, boss);
        return counts.downloads >= N && counts.updateChecks >= 3 * N && counts;
      },
      20_000,
      "the counts on /admin",
    );
    expect(shown).toEqual(expected(N));
    expect(await adminCounts(server, boss)).toEqual(expected(N));
  });

  it("writes nothing per request, and what is still in memory when SIGTERM arrives", async () => {
    await server.stop();
    // Five minutes between flushes: only the shutdown writes what follows.
    server = await start("300000");
    await sendCountedRequests(server.url, N);
    expect(await adminCounts(server, boss)).toEqual(expected(N));

    const { code } = await server.stop("SIGTERM");
    expect(code).toBe(0);
    expect(await storedCounts(dataDir, databaseUrl)).toEqual(expected(2 * N));
    server = await start("200");
    expect(await adminCounts(server, boss)).toEqual(expected(2 * N));
  });
});

const postgresUrl = inject("postgresUrl");

// PostgreSQL is required in CI (global setup fails without it), so this never silently skips there.
describe.runIf(postgresUrl)("batched counters of several processes on one PostgreSQL", () => {
  let servers: RunningTestServer[] = [];
  let fake: FakeRazorpay;
  let databaseUrl = "";

  beforeAll(async () => {
    fake = await startFakeRazorpay();
    databaseUrl = await createDatabase(postgresUrl);
    const env = {
      DATABASE_URL: databaseUrl,
      ADMIN_EMAILS: "ops@example.com",
      PAYMENTS_PROVIDER: "razorpay",
      RAZORPAY_API_URL: fake.url,
      RAZORPAY_KEY_ID: FAKE_KEYS.keyId,
      RAZORPAY_KEY_SECRET: FAKE_KEYS.keySecret,
      RAZORPAY_WEBHOOK_SECRET: FAKE_KEYS.webhookSecret,
      // Nothing is written before the shutdown: every process flushes the same keys at once.
      STATS_FLUSH_MS: "300000",
    };
    // One DATA_DIR: the release files live on this disk, as shared storage would hold them.
    const dataDir = tempDataDir();
    servers = await Promise.all([
      startServerProcess({ dataDir, env }),
      startServerProcess({ dataDir, env: { ...env, WEB_CONCURRENCY: "2" } }),
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

  it("adds up the counts of an instance and of both workers of another, stopped together", async () => {
    const [single, pooled] = servers as [RunningTestServer, RunningTestServer];
    const ops = await signUpVerified(single, {
      name: "Ops",
      email: "ops@example.com",
      password: "counters-password-2",
    });
    const created = await postForm(single, "/admin/releases", ops, { intent: "token", name: "ci" });
    const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    const files = releaseFiles().flatMap((file) => ["--file", file]);
    const published = await runScript(
      "scripts/release-publish.ts",
      [
        "--version",
        VERSION,
        "--notes",
        "Counted.",
        "--site",
        single.url,
        "--token",
        token,
        ...files,
      ],
      {},
    );
    expect(published.output).toContain(`published ${VERSION}`);

    await Promise.all([sendCountedRequests(single.url, N), sendCountedRequests(pooled.url, N)]);
    const stopped = await Promise.all(servers.map((server) => server.stop("SIGTERM")));
    expect(stopped.map((result) => result.code)).toEqual([0, 0]);
    expect(await storedCounts(tempDataDir(), databaseUrl)).toEqual(expected(2 * N));
  });
});
