import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { outerTmpdir, SCRATCH_ENV } from "../../scripts/lib/scratch";
import { E2E_DATA_DIR } from "./env";

// What the journeys write (downloaded invoices, uploads, the browser's own files) goes in the
// run's folder, which global-teardown.ts removes; only the server's data folder is outside it.
test("the browser tests write into the run's own temporary folder", () => {
  const root = process.env[SCRATCH_ENV] ?? "";
  expect(path.basename(root)).toMatch(/^pinout-run-e2e-\d+$/);
  expect(os.tmpdir()).toBe(root);
  expect(path.dirname(root)).toBe(outerTmpdir());
  expect(path.dirname(E2E_DATA_DIR)).toBe(outerTmpdir());
});
