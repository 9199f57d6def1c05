/**
 * npm run bench:http — throughput and latency of the production server, on this machine, in one
 * run (issue 12's table): a plain node:http server serving the captured bytes of `/` (the
 * ceiling), /healthz, /robots.txt, the public pages, and the signed-in pages (a user signed in
 * through the real API), what the installed apps call (the update feeds of both channels, Tauri's
 * endpoint, /api/desktop/me and /api/desktop/refresh with device tokens from the real sign-in
 * handoff, on a release published through the admin API), 20 connections for 10 s each with
 * autocannon; then a 60 s mixed run at 50 connections. Prints a table and writes bench/results/http.md. Embedded database; with
 * BENCH_DATABASE_URL set, PostgreSQL too, where the signed-in pages and the mixed run are measured
 * again with one server process per core (WEB_CONCURRENCY). A measurement, never a test.
 *
 * While working on one endpoint: BENCH_ONLY=<text> measures the ceiling and only the targets whose
 * name contains the text (`BENCH_ONLY=/api/desktop`), prints them and leaves bench/results/http.md
 * alone; BENCH_CPU_PROF=1 with it runs the server under `node --cpu-prof` and prints where its CPU
 * time went (BENCH_CPU_PROF_OUT=<file> keeps the profile).
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { PUBLIC_PAGES, ROOT, startBenchSite } from "./lib/bench-site";
import { EMBEDDED_IDLE_LIMIT_MB, EMBEDDED_LOAD_LIMIT_MB, rssMb } from "./lib/footprint";
import { summariseProfile } from "./lib/cpu-profile";
import { claimScratchUntilExit } from "./lib/scratch";
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const MIXED_DURATION = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
/** A part of the run only (see above): never written to bench/results/http.md. */
const ONLY = process.env.BENCH_ONLY;
const PROFILE_ONLY = Boolean(ONLY) && process.env.BENCH_CPU_PROF === "1";
const wanted = (target: string) => !ONLY || target.includes(ONLY);
const PUBLIC = PUBLIC_PAGES;
const PRIVATE = ["/account", "/account/usage", "/billing"];
/** The release the apps' calls are measured against, newer than the embedded demo release. */
const BENCH_VERSION = "1.5.0";
/** New on every run: a PostgreSQL database given by BENCH_DATABASE_URL may hold earlier runs. */
const ADMIN_EMAIL = `bench-admin-${Date.now()}@example.com`;
/** What every installed app polls: each feed of both channels, and Tauri's dynamic endpoint. */
const FEEDS = [
  ...["stable", "beta"].flatMap((channel) =>
    ["latest.yml", "latest-mac.yml", "appcast.xml", "tauri.json"].map(
      (feed) => `/updates/${channel}/${feed}`,
    ),
  ),
  `/updates/tauri/darwin/aarch64/${BENCH_VERSION}`,
  "/updates/tauri/darwin/aarch64/1.0.0",
];
/** One device (and one user: the free plan allows one) per connection for /api/desktop/refresh. */
const REFRESH_CONNECTIONS = 20;
const REFRESH_TARGET = "POST /api/desktop/refresh (a device per connection)";

/**
 * Several processes need the real Razorpay (the sandbox lives in one process); the pages measured
 * read only the database, so test keys and an address nobody answers will do.
 */
const RAZORPAY_UNUSED = {
  PAYMENTS_PROVIDER: "razorpay",
  RAZORPAY_KEY_ID: "rzp_test_benchmark000000",
  RAZORPAY_KEY_SECRET: "benchmark-key-secret",
  RAZORPAY_WEBHOOK_SECRET: "benchmark-webhook-secret",
  RAZORPAY_API_URL: "http://127.0.0.1:9",
  RAZORPAY_CHECKOUT_URL: "http://127.0.0.1:9/checkout.js",
};

async function startSite(
  databaseUrl?: string,
  dataDir?: string,
  nodeArgs?: string[],
  processes = 1,
) {
  return startBenchSite(
    {
      AUTH_RATE_LIMIT: "10000",
      ADMIN_EMAILS: ADMIN_EMAIL,
      // The highest limits the site takes, counted as always; each feed comes from an address of
      // its own (below), so no row is answered 429 by the limit the rows before it used up.
      API_RATE_LIMIT: "100000",
      UPDATES_RATE_LIMIT: "1000000",
      TRUST_PROXY: "loopback",
      WEB_CONCURRENCY: String(processes),
      ...(processes > 1 ? RAZORPAY_UNUSED : {}),
      ...(databaseUrl
        ? {
            DATABASE_URL: databaseUrl,
            BETTER_AUTH_SECRET: "bench-secret-0123456789abcdef0123456789",
          }
        : {}),
    },
    { dataDir, nodeArgs },
  );
}

/** Signs a user up and in through the real API (the verification link from the .eml outbox). */
let signUps = 0;
async function signIn(
  url: string,
  dataDir: string,
  email = `bench-${Date.now()}-${(signUps += 1)}@example.com`,
): Promise<string> {
  const headers = { "content-type": "application/json", origin: url };
  await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Bench", email, password: "bench-password-1" }),
  });
  // The mail lane sends it a moment after the answer: wait for it (up to 15 s).
  const mailDir = path.join(dataDir, "mail");
  let mail: string | undefined;
  for (let i = 0; i < 150 && !mail; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!fs.existsSync(mailDir)) continue;
    mail = fs
      .readdirSync(mailDir)
      .map((file) => fs.readFileSync(path.join(mailDir, file), "utf8").replace(/=\r?\n/g, ""))
      .find((text) => text.includes(email));
  }
  const link = /https?:\/\/[^\s"<>]+verify-email[^\s"<>]+/
    .exec(mail ?? "")?.[0]
    ?.replace(/=3D/g, "=");
  if (!link) throw new Error("no verification mail");
  const verified = await fetch(link, { redirect: "manual" });
  const cookie = verified.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error("sign-in failed");
  return cookie;
}

/** The app's sign-in: the web → app handoff (PKCE) and the token exchange; its token pair. */
async function signInDevice(
  url: string,
  cookie: string,
  name: string,
): Promise<{ access_token: string; refresh_token: string }> {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const handoff = await fetch(`${url}/api/functions/generateAuthRedirectToken`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, cookie },
    body: JSON.stringify({
      data: {
        redirect_uri: "http://127.0.0.1:53682/callback",
        state: "bench-state-1234",
        code_challenge: challenge,
        code_challenge_method: "S256",
      },
    }),
  });
  if (handoff.status !== 200) throw new Error(`handoff failed: ${handoff.status}`);
  const { token } = ((await handoff.json()) as { result: { token: string } }).result;
  const exchanged = await fetch(`${url}/api/desktop/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      token,
      code_verifier: verifier,
      device_name: name,
      platform: "mac",
      app_version: "1.0.0",
    }),
  });
  if (exchanged.status !== 200) throw new Error(`token exchange failed: ${exchanged.status}`);
  return (await exchanged.json()) as { access_token: string; refresh_token: string };
}

/**
 * Publishes BENCH_VERSION through the running site's admin API (as a build job does), with a
 * file for every feed: the Mac and Windows installers, Squirrel.Mac's zip, the blockmap, and
 * Tauri's archives with their signatures.
 */
async function publishBenchRelease(url: string, dataDir: string): Promise<void> {
  const cookie = await signIn(url, dataDir, ADMIN_EMAIL);
  const created = await fetch(`${url}/admin/releases`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url, cookie },
    body: new URLSearchParams({ intent: "token", name: "bench" }),
  });
  const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0];
  if (!token) throw new Error("no admin token");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-bench-release-"));
  const v = BENCH_VERSION;
  const files: [string, Buffer | string][] = [
    [`Pinout-${v}.dmg`, Buffer.alloc(200_000, 1)],
    [`Pinout-${v}-mac.zip`, Buffer.alloc(100_000, 2)],
    [`Pinout-Setup-${v}.exe`, Buffer.alloc(150_000, 3)],
    [`Pinout-Setup-${v}.exe.blockmap`, "blockmap"],
    [`Pinout-${v}.app.tar.gz`, Buffer.alloc(100_000, 4)],
    [`Pinout-${v}.app.tar.gz.sig`, "untrusted comment: signature\nRUQbenchmac=="],
    [`Pinout_${v}_x64_en-US.msi`, Buffer.alloc(100_000, 5)],
    [`Pinout_${v}_x64_en-US.msi.sig`, "untrusted comment: signature\nRUQbenchwin=="],
  ];
  const args = files.flatMap(([name, body]) => {
    fs.writeFileSync(path.join(dir, name), body);
    return ["--file", path.join(dir, name)];
  });
  const cli = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
      "scripts/release-publish.ts",
      ...["--site", url, "--token", token, "--version", v, "--notes", "Benchmark release."],
      ...args,
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR },
    },
  );
  let output = "";
  cli.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  cli.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => cli.once("exit", resolve));
  // An earlier run on the same PostgreSQL database published it already: measure that one.
  if (code !== 0 && !output.includes("already exists"))
    throw new Error(`publishing ${v} failed (${code}):\n${output}`);
}

/**
 * /api/desktop/refresh as apps call it: one device per connection, each request sending the
 * refresh token the previous answer for that device gave (a token used twice would sign the device
 * out). The tokens wait in a pool between requests: autocannon gives each request a fresh context
 * (it resets it every time a connection has gone through its list of requests, here after every
 * request), so a token kept there was lost after the first answer and every later request sent
 * none (the ~1,600 400s of the earlier runs). A connection takes a token when it builds its next
 * request, which it does only after the previous answer put the rotated one back.
 */
async function measureRefresh(url: string, dataDir: string): Promise<Row> {
  const tokens: string[] = [];
  for (let i = 0; i < REFRESH_CONNECTIONS; i++) {
    const cookie = await signIn(url, dataDir);
    tokens.push((await signInDevice(url, cookie, `Bench refresh ${i}`)).refresh_token);
  }
  const result = await autocannon({
    url: `${url}/api/desktop/refresh`,
    connections: REFRESH_CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ refresh_token: tokens.shift() }),
        }),
        onResponse: (status, body) => {
          if (status === 200)
            tokens.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
        },
      },
    ],
  });
  return {
    target: REFRESH_TARGET,
    requests: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

interface Row {
  target: string;
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  ratio?: number;
}

async function measure(
  target: string,
  url: string,
  headers: Record<string, string> = {},
  connections = 20,
  duration = DURATION,
  everyUrlNew = false,
): Promise<Row> {
  let view = 0;
  const { pathname } = new URL(url);
  const options: autocannon.Options & { warmup: { connections: number; duration: number } } = {
    url,
    connections,
    duration,
    headers,
    // A second of the same load first, not counted: what is measured is the server warmed up
    // (its code compiled by V8 for this path), not the first target's share of start-up.
    warmup: { connections, duration: 1 },
    // A query string never asked before: a signed-in page is then rendered on every request, as
    // a first view is, instead of being reused (decision 0035).
    ...(everyUrlNew
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => ({
                ...request,
                path: `${pathname}?view=${(view += 1)}`,
              }),
            },
          ],
        }
      : {}),
  };
  const result = await autocannon(options);
  return {
    target,
    requests: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function tableLines(rows: Row[]): string[] {
  return [
    "| target | req/s | p50 ms | p99 ms | errors | × ceiling |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (row) =>
        `| ${row.target} | ${row.requests} | ${row.p50} | ${row.p99} | ${row.errors} | ${(row.ratio ?? 0).toFixed(3)} |`,
    ),
  ];
}

/** A BENCH_ONLY run: the rows measured, and where the server's CPU went under BENCH_CPU_PROF. */
async function onlyLines(
  label: string,
  rows: Row[],
  site: { stop(): Promise<void> },
  profileDir?: string,
): Promise<string[]> {
  await site.stop();
  const profileFile = profileDir
    ? fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"))
    : undefined;
  // BENCH_CPU_PROF_OUT=<file> keeps the profile (the run's folder is removed at its end), for
  // Chrome's DevTools or a closer look at who calls what.
  const keep = process.env.BENCH_CPU_PROF_OUT;
  if (keep && profileDir && profileFile) fs.copyFileSync(path.join(profileDir, profileFile), keep);
  const lines = [
    `## ${label}`,
    "",
    ...tableLines(rows),
    "",
    ...(profileDir && profileFile
      ? [
          "### Where the server's time went (the whole run, sign-ins included)",
          "",
          ...summariseProfile(path.join(profileDir, profileFile), 25),
        ]
      : []),
  ];
  console.log(lines.join("\n"));
  return lines;
}

const CEILING_SERVER = `
const http = require("node:http");
const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const body = Buffer.concat(chunks);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
});
`;

/** A plain node:http server answering every request with `body`, in a child process. */
async function startCeiling(body: Buffer): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ["-e", CEILING_SERVER], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(body);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (data: Buffer) => resolve(Number(String(data).trim())));
    child.once("exit", () => reject(new Error("the ceiling server stopped")));
  });
  return { port, stop: () => child.kill("SIGTERM") };
}

async function runEngine(label: string, databaseUrl?: string): Promise<string[]> {
  const startedAt = Date.now();
  const onlyProfileDir = PROFILE_ONLY
    ? fs.mkdtempSync(path.join(os.tmpdir(), "pinout-cpuprof-"))
    : undefined;
  const site = await startSite(
    databaseUrl,
    undefined,
    onlyProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${onlyProfileDir}`] : undefined,
  );
  const coldStartMs = Date.now() - startedAt;
  const cookie = await signIn(site.url, site.dataDir);
  const rssAtRest = rssMb(site.child.pid ?? 0);

  // The ceiling: the same bytes as `/` from a bare node:http server in its own process (as the
  // site is), so it does not share an event loop with the load generator.
  const home = Buffer.from(await (await fetch(`${site.url}/`)).arrayBuffer());
  const ceiling = await startCeiling(home);
  const ceilingPort = ceiling.port;

  const rows: Row[] = [];
  rows.push(
    await measure("plain node:http, bytes of / (ceiling)", `http://127.0.0.1:${ceilingPort}/`),
  );
  ceiling.stop();
  const measured = async (
    target: string,
    url: string,
    headers: Record<string, string> = {},
  ): Promise<void> => {
    if (wanted(target)) rows.push(await measure(target, url, headers));
  };
  await measured("/healthz", `${site.url}/healthz`);
  await measured("/robots.txt", `${site.url}/robots.txt`);
  for (const page of PUBLIC) await measured(page, `${site.url}${page}`);
  for (const page of PRIVATE)
    await measured(`${page} (signed in)`, `${site.url}${page}`, { cookie });
  const firstViews = "/account (signed in, every view a new URL: rendered each time)";
  if (wanted(firstViews))
    rows.push(await measure(firstViews, `${site.url}/account`, { cookie }, 20, DURATION, true));
  await measured("/account.data (signed in, loader only)", `${site.url}/account.data`, { cookie });

  // What the installed apps call: feeds, Tauri's endpoint, /me and /refresh with device tokens.
  await publishBenchRelease(site.url, site.dataDir);
  // Each feed as the installs behind one office's address (TRUST_PROXY above): a target's ~250,000
  // checks in its 11 s stay within the per-minute limit, which the rows together would not.
  for (const [index, feed] of FEEDS.entries())
    await measured(feed, `${site.url}${feed}`, { "x-forwarded-for": `203.0.113.${index + 1}` });
  const device = await signInDevice(site.url, cookie, "Bench Mac");
  await measured("/api/desktop/me (device token)", `${site.url}/api/desktop/me`, {
    authorization: `Bearer ${device.access_token}`,
    "x-app-version": "1.0.0",
    // Its own address too: /refresh after it counts against the same API limit.
    "x-forwarded-for": "203.0.113.100",
  });
  if (wanted(REFRESH_TARGET)) rows.push(await measureRefresh(site.url, site.dataDir));
  const rssUnderLoad = rssMb(site.child.pid ?? 0);
  const ceilingRate = rows[0]?.requests ?? 1;
  for (const row of rows) row.ratio = row.requests / ceilingRate;
  if (ONLY) return onlyLines(label, rows, site, onlyProfileDir);

  // Mixed: public and signed-in pages at once, 50 connections.
  const mixed = await autocannon({
    url: site.url,
    connections: 50,
    duration: MIXED_DURATION,
    requests: [
      ...PUBLIC.map((page) => ({ method: "GET" as const, path: page })),
      ...PRIVATE.map((page) => ({ method: "GET" as const, path: page, headers: { cookie } })),
    ],
  });
  const rssAfterMixed = rssMb(site.child.pid ?? 0);
  await site.stop();

  // PostgreSQL only: one server process per core (WEB_CONCURRENCY), the signed-in pages again.
  const cores = os.cpus().length;
  const several: Row[] = [];
  let severalMixed: autocannon.Result | undefined;
  if (databaseUrl && cores > 1) {
    const pooled = await startSite(databaseUrl, undefined, [], cores);
    const pooledCookie = await signIn(pooled.url, pooled.dataDir);
    // Every worker warm before measuring.
    await autocannon({
      url: `${pooled.url}/account`,
      connections: 4,
      duration: 2,
      headers: { cookie: pooledCookie },
    });
    for (const page of PRIVATE)
      several.push(
        await measure(`${page} (signed in, ${cores} processes)`, `${pooled.url}${page}`, {
          cookie: pooledCookie,
        }),
      );
    severalMixed = await autocannon({
      url: pooled.url,
      connections: 50,
      duration: MIXED_DURATION,
      requests: [
        ...PUBLIC.map((page) => ({ method: "GET" as const, path: page })),
        ...PRIVATE.map((page) => ({
          method: "GET" as const,
          path: page,
          headers: { cookie: pooledCookie },
        })),
      ],
    });
    await pooled.stop();
    for (const row of several) row.ratio = row.requests / ceilingRate;
  }

  // Restart on the same data folder: what a deploy or a crash costs.
  const restartedAt = Date.now();
  const again = await startSite(databaseUrl, site.dataDir);
  const restartMs = Date.now() - restartedAt;
  await again.stop();

  // Where a signed-in request's time goes: the same server under node --cpu-prof, /account only.
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-cpuprof-"));
  const profiled = await startSite(databaseUrl, site.dataDir, [
    "--cpu-prof",
    `--cpu-prof-dir=${profileDir}`,
  ]);
  const profiledCookie = await signIn(profiled.url, profiled.dataDir);
  await autocannon({
    url: `${profiled.url}/account`,
    connections: 20,
    duration: DURATION,
    headers: { cookie: profiledCookie },
  });
  await profiled.stop();
  const profileFile = fs.readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
  const breakdown = profileFile
    ? summariseProfile(path.join(profileDir, profileFile))
    : ["(no profile written)", ""];

  const lines = [
    `## ${label}`,
    "",
    ...tableLines([...rows, ...several]),
    "",
    `Mixed run (${MIXED_DURATION} s, 50 connections, public + signed-in): ${Math.round(mixed.requests.average)} req/s, p99 ${mixed.latency.p99} ms, errors ${mixed.errors + mixed.non2xx}.`,
    ...(severalMixed
      ? [
          "",
          `Mixed run with ${cores} processes (WEB_CONCURRENCY=${cores}): ${Math.round(severalMixed.requests.average)} req/s, p99 ${severalMixed.latency.p99} ms, errors ${severalMixed.errors + severalMixed.non2xx}.`,
        ]
      : []),
    "",
    `### Where /account's time goes (node --cpu-prof, ${DURATION} s at 20 connections)`,
    "",
    ...breakdown,
    `Cold start on an empty data folder to ready: ${coldStartMs} ms; restart on the same folder: ${restartMs} ms. Server RSS: ${rssAtRest} MB at rest after the first start, ${rssUnderLoad} MB after the single-target runs, ${rssAfterMixed} MB after the mixed run.`,
    ...(databaseUrl
      ? []
      : [
          "",
          `Embedded footprint against its limits (decision 0051): at rest ${rssAtRest} MB of ${EMBEDDED_IDLE_LIMIT_MB} (${rssAtRest < EMBEDDED_IDLE_LIMIT_MB ? "within" : "OVER"}), after the mixed run ${rssAfterMixed} MB of ${EMBEDDED_LOAD_LIMIT_MB} (${rssAfterMixed < EMBEDDED_LOAD_LIMIT_MB ? "within" : "OVER"}).`,
        ]),
    "",
  ];
  console.log(lines.join("\n"));
  return lines;
}

async function main() {
  // Data folders, profiles and the ceiling's files go when the bench ends (scripts/lib/scratch.ts).
  claimScratchUntilExit("bench-http");
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node ${process.version}`;
  const sections = [
    "# HTTP benchmark",
    "",
    `Machine: ${machine}. Load generator on the same machine (autocannon, ${DURATION} s per target, 20 connections). Written by \`npm run bench:http\` on ${new Date().toISOString()}.`,
    "",
    ...(await runEngine("Embedded database (PGlite)")),
  ];
  if (process.env.BENCH_DATABASE_URL)
    sections.push(...(await runEngine("PostgreSQL", process.env.BENCH_DATABASE_URL)));
  if (ONLY) return;
  fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
  fs.writeFileSync(path.join(ROOT, "bench", "results", "http.md"), sections.join("\n"));
  console.log("wrote bench/results/http.md");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
