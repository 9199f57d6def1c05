/**
 * Run after the browser tests (`npm run test:e2e`): fails when the site's data folder outlived
 * the run (issue 55: it stayed in the system temp folder, 95 MB a run, until the next run).
 * playwright.config.ts removes it as the runner exits; this says so when it stops doing that.
 */
import fs from "node:fs";
import path from "node:path";
import { outerTmpdir } from "./lib/scratch";

const folder = path.join(outerTmpdir(), `pinout-e2e-${Number(process.env.E2E_PORT ?? 4317)}`);
if (fs.existsSync(folder)) {
  console.error(`The browser tests left their data folder behind: ${folder}`);
  process.exit(1);
}
console.log(`The browser tests left no data folder behind (${folder}).`);
