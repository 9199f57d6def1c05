/**
 * npm run bench:lighthouse — Lighthouse 12 (mobile, its default) on every public page of the
 * production build, served by the real server on a fresh embedded database. Prints a table and
 * writes it to bench/results/lighthouse.md (+ .json). A measurement, not a test: it never fails on
 * a score. Needs `npm run build` first and Chromium (/usr/bin/chromium or CHROME_PATH).
 */
import fs from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { PUBLIC_PAGES, ROOT, startBenchSite } from "./lib/bench-site";

const PAGES = PUBLIC_PAGES;
const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";

async function startSite() {
  if (!fs.existsSync(path.join(ROOT, "build", "server", "index.js")))
    throw new Error("run `npm run build` first");
  return startBenchSite();
}

interface Row {
  page: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** What the browser downloaded (brotli where it accepts it). */
  jsKbTransferred: number;
  /** The same scripts gzipped (level 9): the yardstick. */
  jsKbGzip: number;
}

type RunnerResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;

/**
 * One Lighthouse run, retried when Lighthouse itself fails to record the page (it says "Please
 * run Lighthouse again", e.g. NO_NAVSTART on a busy machine): that is not the page's score.
 */
async function audit(url: string, port: number, attempts = 3): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
    });
    if (!result) throw new Error(`no result for ${url}`);
    const failure = result.lhr.runtimeError;
    if (!failure || attempt >= attempts) return result;
    console.warn(`${url}: ${failure.code}, running it again`);
  }
}

async function main() {
  const site = await startSite();
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  const rows: (Row | { page: string; error: string })[] = [];
  try {
    for (const page of PAGES) {
      const result = await audit(`${site.url}${page}`, chrome.port);
      if (result.lhr.runtimeError) {
        // A failed trace has no scores: a row of zeros would read as a measurement.
        rows.push({ page, error: result.lhr.runtimeError.code });
        console.warn(`${page}: not measured (${result.lhr.runtimeError.code})`);
        continue;
      }
      const { categories, audits } = result.lhr;
      const requests =
        (
          audits["network-requests"]?.details as
            { items?: { resourceType?: string; transferSize?: number; url?: string }[] } | undefined
        )?.items ?? [];
      const scripts = requests.filter((item) => item.resourceType === "Script");
      const jsBytes = scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
      let gzipBytes = 0;
      for (const item of scripts) {
        if (!item.url) continue;
        const body = Buffer.from(await (await fetch(item.url)).arrayBuffer());
        gzipBytes += gzipSync(body, { level: 9 }).length;
      }
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      rows.push({
        page,
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        lcpMs: Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
        tbtMs: Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
        cls: Number((audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)),
        jsKbTransferred: Number((jsBytes / 1024).toFixed(1)),
        jsKbGzip: Number((gzipBytes / 1024).toFixed(1)),
      });
      console.log(`measured ${page}`);
    }
  } finally {
    chrome.kill();
    await site.stop();
  }

  const header =
    "| page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS | JS KB transferred | JS KB gzip |";
  const lines = [
    `# Lighthouse ${new Date().toISOString().slice(0, 10)} (mobile, production build, ${os.cpus().length} cores)`,
    "",
    header,
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) =>
      "error" in row
        ? `| ${row.page} | not measured: Lighthouse failed (${row.error}) three times |||||||||`
        : `| ${row.page} | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${row.lcpMs} | ${row.tbtMs} | ${row.cls} | ${row.jsKbTransferred} | ${row.jsKbGzip} |`,
    ),
    "",
    "Target: 100 in every category on every page, and at most 100 KB of gzipped JS on `/`.",
    "",
  ];
  const dir = path.join(ROOT, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "lighthouse.md"), lines.join("\n"));
  fs.writeFileSync(
    path.join(dir, "lighthouse.json"),
    JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2) + "\n",
  );
  console.log(lines.join("\n"));
}

await main();
