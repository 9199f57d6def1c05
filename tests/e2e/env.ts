import os from "node:os";
import path from "node:path";

/** Shared by playwright.config.ts (which starts the server) and the tests (which read its outbox). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4317);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const E2E_DATA_DIR = path.join(os.tmpdir(), `pinout-e2e-${E2E_PORT}`);
export const E2E_ADMIN_EMAIL = "ops@pinout.test";
/** A second admin, so journeys that need one can run in parallel with their own account. */
export const E2E_RELEASES_ADMIN_EMAIL = "releases@pinout.test";
export const E2E_POLISH_ADMIN_EMAIL = "polish@pinout.test";
export const E2E_COCKPIT_ADMIN_EMAIL = "cockpit@pinout.test";
/** 60 characters: the admin pages are measured with a long address (tests/e2e/overflow.spec.ts). */
export const E2E_LAYOUT_ADMIN_EMAIL =
  "layout-admin.operations-and-support@pinout-labs-bengaluru.in";
