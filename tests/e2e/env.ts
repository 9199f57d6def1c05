import path from "node:path";
import { claimScratch, outerTmpdir, SCRATCH_ENV } from "../../scripts/lib/scratch";

// The runner loads this through playwright.config.ts and claims the run's temporary folder: the
// browsers and every test's files go there, and global-teardown.ts removes it. Workers inherit
// its TMPDIR and variable, so they claim nothing.
if (!process.env[SCRATCH_ENV]) claimScratch("e2e");

/** Shared by playwright.config.ts (which starts the server) and the tests (which read its outbox). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** Outside the run's folder: the server still runs when that goes; each run starts it afresh. */
export const E2E_DATA_DIR = path.join(outerTmpdir(), `pinout-e2e-${E2E_PORT}`);
export const E2E_ADMIN_EMAIL = "ops@pinout.test";
/** A second admin, so journeys that need one can run in parallel with their own account. */
export const E2E_RELEASES_ADMIN_EMAIL = "releases@pinout.test";
export const E2E_POLISH_ADMIN_EMAIL = "polish@pinout.test";
export const E2E_COCKPIT_ADMIN_EMAIL = "cockpit@pinout.test";
export const E2E_SUPPORT_ADMIN_EMAIL = "desk@pinout.test";
export const E2E_COUPONS_ADMIN_EMAIL = "coupons@pinout.test";
export const E2E_RETENTION_ADMIN_EMAIL = "retention@pinout.test";
/** 60 characters: the admin pages are measured with a long address (tests/e2e/pages.spec.ts). */
export const E2E_LAYOUT_ADMIN_EMAIL =
  "layout-admin.operations-and-support@pinout-labs-bengaluru.in";

/**
 * The Letter of Undertaking the journeys sell abroad under (issue 56): for the financial year of
 * today in India (April to March), so a foreign currency is offered whenever the suite runs.
 */
export const E2E_LUT_ARN = "AD2904260012345";
export function e2eLutFinancialYear(now: Date = new Date()): string {
  const india = new Date(now.getTime() + 5.5 * 3_600_000);
  const start = india.getUTCMonth() >= 3 ? india.getUTCFullYear() : india.getUTCFullYear() - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}
