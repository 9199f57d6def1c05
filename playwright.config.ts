import fs from "node:fs";
import { defineConfig } from "@playwright/test";
import {
  BASE_URL,
  E2E_ADMIN_EMAIL,
  E2E_COCKPIT_ADMIN_EMAIL,
  E2E_COUPONS_ADMIN_EMAIL,
  E2E_RETENTION_ADMIN_EMAIL,
  E2E_SUPPORT_ADMIN_EMAIL,
  E2E_DATA_DIR,
  E2E_LAYOUT_ADMIN_EMAIL,
  E2E_PORT,
  E2E_POLISH_ADMIN_EMAIL,
  E2E_LUT_ARN,
  E2E_RELEASES_ADMIN_EMAIL,
  e2eLutFinancialYear,
} from "./tests/e2e/env";

// Debian's Chromium (Playwright's own browser download is not reachable here). Its old headless
// shell first: Playwright runs that build for headless tests by default, and on the 2-core
// machine it takes about a third less CPU per test than the full browser's headless mode.
const executablePath = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) =>
  fs.existsSync(file),
);

// The site's data folder goes when the run ends, not at the next run (issue 55: 95 MB left in the
// system temp folder). Only the runner removes it, on its way out, after it has stopped the web
// server (global teardown runs while the server still does); its workers load this file too.
if (!process.env.TEST_WORKER_INDEX)
  process.once("exit", () => fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true }));

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  // At least three times the longest journey's usual time (about 33 s on the 2-core machine), so a
  // busy machine slows the run down instead of failing it; expectations poll up to 15 s.
  timeout: 100_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  globalTeardown: "./tests/e2e/global-teardown.ts",
  use: {
    baseURL: BASE_URL,
    // A failed test keeps its trace: each action's DOM snapshot, network and console. Without the
    // screencast, which recorded every test's frames only to throw them away when it passed: that
    // was about a sixth of the browser tests' CPU time on the 2-core machine.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true, sources: false },
    // Headless Chromium names itself "HeadlessChrome", which the site (rightly) treats as a bot;
    // these tests are about what people see, so they browse as the desktop browser does.
    userAgent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    launchOptions: {
      executablePath,
      // As root Chromium needs --no-sandbox; the rest keep it off the (closed) network.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  projects: [{ name: "chromium" }],
  webServer: {
    // The production build on a fresh embedded database.
    command: `rm -rf ${E2E_DATA_DIR} && node server.js`,
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(E2E_PORT),
      HOST: "127.0.0.1",
      DATA_DIR: E2E_DATA_DIR,
      SITE_URL: BASE_URL,
      ERROR_PROBE: "true",
      ADMIN_EMAILS: `${E2E_ADMIN_EMAIL},${E2E_COCKPIT_ADMIN_EMAIL},${E2E_RELEASES_ADMIN_EMAIL},${E2E_POLISH_ADMIN_EMAIL},${E2E_LAYOUT_ADMIN_EMAIL},${E2E_SUPPORT_ADMIN_EMAIL},${E2E_COUPONS_ADMIN_EMAIL},${E2E_RETENTION_ADMIN_EMAIL}`,
      // Journeys sign in often from one address; the limit itself is tested over HTTP.
      AUTH_RATE_LIMIT: "1000",
      API_RATE_LIMIT: "10000",
      LOG_LEVEL: "warn",
      // Selling abroad (issue 56): dollars and euros under this year's Letter of Undertaking.
      SELL_ABROAD_CURRENCIES: "USD,EUR",
      GST_LUT_ARN: E2E_LUT_ARN,
      GST_LUT_FINANCIAL_YEAR: e2eLutFinancialYear(),
    },
  },
});
