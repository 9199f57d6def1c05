/**
 * npm run bench:http — throughput and latency of the production server, on this machine, in one
 * run (issue 12's table): a plain node:http server serving the captured bytes of `/` (the
 * ceiling), /healthz, /robots.txt, the public pages, and the signed-in pages (a user signed in
 * through the real API), 20 connections for 10 s each with autocannon; then a 60 s mixed run at
 * 50 connections. Prints a table and writes bench/results/http.md. Embedded database; with
 * BENCH_DATABASE_URL set, PostgreSQL too, where the signed-in pages and the mixed run are measured
 * again with one server process per core (WEB_CONCURRENCY). A measurement, never a test.
 */
import fs from "node:fs";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { PUBLIC_PAGES, ROOT, startBenchSite } from "./lib/bench-site";
import { summariseProfile } from "./lib/cpu-profile";
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const MIXED_DURATION = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
const PUBLIC = PUBLIC_PAGES;
const PRIVATE = ["/account", "/account/usage", "/billing"];

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
      API_RATE_LIMIT: "100000",
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
async function signIn(url: string, dataDir: string): Promise<string> {
  const email = `bench-${Date.now()}@example.com`;
  const headers = { "content-type": "application/json", origin: url };
  await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Bench", email, password: "bench-password-1" }),
  });
  const mailDir = path.join(dataDir, "mail");
  for (let i = 0; i < 40 && !fs.existsSync(mailDir); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const mail = fs
    .readdirSync(mailDir)
    .map((file) => fs.readFileSync(path.join(mailDir, file), "utf8").replace(/=\r?\n/g, ""))
    .find((text) => text.includes(email));
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
): Promise<Row> {
  const result = await autocannon({ url, connections, duration, headers });
  return {
    target,
    requests: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
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
  const site = await startSite(databaseUrl);
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
  rows.push(await measure("/healthz", `${site.url}/healthz`));
  rows.push(await measure("/robots.txt", `${site.url}/robots.txt`));
  for (const page of PUBLIC) rows.push(await measure(page, `${site.url}${page}`));
  for (const page of PRIVATE)
    rows.push(await measure(`${page} (signed in)`, `${site.url}${page}`, { cookie }));
  const rssUnderLoad = rssMb(site.child.pid ?? 0);
  const ceilingRate = rows[0]?.requests ?? 1;
  for (const row of rows) row.ratio = row.requests / ceilingRate;

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
    "| target | req/s | p50 ms | p99 ms | errors | × ceiling |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...[...rows, ...several].map(
      (row) =>
        `| ${row.target} | ${row.requests} | ${row.p50} | ${row.p99} | ${row.errors} | ${(row.ratio ?? 0).toFixed(3)} |`,
    ),
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
    `Cold start on an empty data folder to ready: ${coldStartMs} ms; restart on the same folder: ${restartMs} ms. Server RSS: ${rssAtRest} MB at rest, ${rssUnderLoad} MB after the single-target runs.`,
    "",
  ];
  console.log(lines.join("\n"));
  return lines;
}

async function main() {
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
  fs.mkdirSync(path.join(ROOT, "bench", "results"), { recursive: true });
  fs.writeFileSync(path.join(ROOT, "bench", "results", "http.md"), sections.join("\n"));
  console.log("wrote bench/results/http.md");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
