/**
 * npm run bench:lighthouse — Lighthouse 12 (mobile, its default) on every public page of the
 * production build, served by the real server on a fresh embedded database. Prints a table and
 * writes it to bench/results/lighthouse.md (+ .json). A measurement, not a test: it never fails on
 * a score. Needs `npm run build` first and Chromium (/usr/bin/chromium or CHROME_PATH).
 *
 * `npm run bench:lighthouse -- --label "what changed"` names the run; the report keeps the previous
 * run's table under it, so a change is read as before and after from one file.
 */
import fs from "node:fs";
import os from "node:os";
import { gzipSync } from "node:zlib";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { PUBLIC_PAGES, ROOT, startBenchSite } from "./lib/bench-site";
import { claimScratchUntilExit } from "./lib/scratch";

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
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Lighthouse's simulated time to interactive: when the page can answer input (hydrated). */
  ttiMs: number;
  /**
   * The same page loaded for real through DevTools' throttling (the same slow-4G link and 4×
   * CPU slowdown): what the browser painted and when it could answer input, where the simulation
   * above estimates them from an unthrottled load.
   */
  observedFcpMs: number;
  observedLcpMs: number;
  observedTtiMs: number;
  cls: number;
  /** What the browser downloaded (brotli where it accepts it). */
  jsKbTransferred: number;
  /** The same scripts gzipped (level 9): the issue's yardstick. */
  jsKbGzip: number;
}

type RunnerResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;

/**
 * One Lighthouse run, retried when Lighthouse itself fails to record the page (it says "Please
 * run Lighthouse again", e.g. NO_NAVSTART on a busy machine): that is not the page's score.
 */
async function audit(
  url: string,
  port: number,
  throttlingMethod: "simulate" | "devtools" = "simulate",
  attempts = 3,
): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      throttlingMethod,
      onlyCategories:
        throttlingMethod === "simulate"
          ? ["performance", "accessibility", "best-practices", "seo"]
          : ["performance"],
    });
    if (!result) throw new Error(`no result for ${url}`);
    const failure = result.lhr.runtimeError;
    if (!failure || attempt >= attempts) return result;
    console.warn(`${url}: ${failure.code}, running it again`);
  }
}

async function main() {
  claimScratchUntilExit("bench-lighthouse");
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
      const observed = (await audit(`${site.url}${page}`, chrome.port, "devtools")).lhr.audits;
      const ms = (audits: typeof observed, id: string) => Math.round(audits[id]?.numericValue ?? 0);
      rows.push({
        page,
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        seo: score("seo"),
        fcpMs: Math.round(audits["first-contentful-paint"]?.numericValue ?? 0),
        lcpMs: Math.round(audits["largest-contentful-paint"]?.numericValue ?? 0),
        tbtMs: Math.round(audits["total-blocking-time"]?.numericValue ?? 0),
        ttiMs: Math.round(audits["interactive"]?.numericValue ?? 0),
        observedFcpMs: ms(observed, "first-contentful-paint"),
        observedLcpMs: ms(observed, "largest-contentful-paint"),
        observedTtiMs: ms(observed, "interactive"),
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

  const dir = path.join(ROOT, "bench", "results");
  const jsonPath = path.join(dir, "lighthouse.json");
  const previous = fs.existsSync(jsonPath)
    ? (JSON.parse(fs.readFileSync(jsonPath, "utf8")) as Run)
    : undefined;
  const run: Run = { measuredAt: new Date().toISOString(), label: labelArgument(), rows };
  const lines = [
    `# Lighthouse (mobile, production build, ${os.cpus().length} cores)`,
    "",
    ...table(run),
    "Target: performance at least 95 and 100 in the other categories on every public page.",
    "",
    ...(previous ? ["## The run before", "", ...table(previous)] : []),
  ];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "lighthouse.md"), lines.join("\n"));
  // Only this run is kept as JSON: the next run's "before".
  fs.writeFileSync(jsonPath, JSON.stringify(run, null, 2) + "\n");
  console.log(lines.join("\n"));
}

interface Run {
  measuredAt: string;
  label?: string;
  rows: (Partial<Row> | { page: string; error: string })[];
}

function labelArgument(): string | undefined {
  const index = process.argv.indexOf("--label");
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const cell = (value: number | undefined) => (value === undefined ? "—" : String(value));

/** A run as a markdown table; runs from before FCP and TTI were recorded show a dash there. */
function table(run: Run): string[] {
  return [
    `${run.measuredAt.slice(0, 16).replace("T", " ")} UTC${run.label ? `: ${run.label}` : ""}`,
    "",
    "Simulated (Lighthouse's default): FCP, LCP, TBT, TTI. Throttled for real (DevTools): FCP, LCP, TTI.",
    "",
    "| page | performance | accessibility | best practices | SEO | FCP ms | LCP ms | TBT ms | TTI ms | real FCP ms | real LCP ms | real TTI ms | CLS | JS KB transferred | JS KB gzip |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...run.rows.map((row) =>
      "error" in row
        ? `| ${row.page} | not measured: Lighthouse failed (${row.error}) three times ||||||||||||||`
        : `| ${row.page} | ${[
            row.performance,
            row.accessibility,
            row.bestPractices,
            row.seo,
            row.fcpMs,
            row.lcpMs,
            row.tbtMs,
            row.ttiMs,
            row.observedFcpMs,
            row.observedLcpMs,
            row.observedTtiMs,
            row.cls,
            row.jsKbTransferred,
            row.jsKbGzip,
          ]
            .map(cell)
            .join(" | ")} |`,
    ),
    "",
  ];
}

await main();
