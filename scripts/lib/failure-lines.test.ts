import { describe, expect, it } from "vitest";
import { failureLines } from "./failure-lines";

describe("failureLines", () => {
  it("names the failed tests of Vitest and Playwright, and lint and type errors, once each", () => {
    const output = [
      " \u001b[32m✓\u001b[39m tests/integration/feedback.test.ts (12 tests) 21649ms",
      " \u001b[31m×\u001b[39m sets a role with the user:role CLI 60012ms",
      " FAIL  tests/integration/account-admin.test.ts > sets a role with the user:role CLI",
      " FAIL  tests/integration/account-admin.test.ts > sets a role with the user:role CLI",
      "  1) [chromium] › tests/e2e/auth.spec.ts:12:3 › signs up ─────",
      "  ✓  2 [chromium] › tests/e2e/auth.spec.ts:40:3 › signs in (3.1s)",
      "/work/main/app/x.ts",
      "  12:5  error  'x' is assigned a value but never used  no-unused-vars",
      "app/x.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "[server] error: the mail server did not answer",
    ].join("\n");
    expect(failureLines(output)).toEqual([
      "× sets a role with the user:role CLI 60012ms",
      "FAIL  tests/integration/account-admin.test.ts > sets a role with the user:role CLI",
      "1) [chromium] › tests/e2e/auth.spec.ts:12:3 › signs up ─────",
      "12:5  error  'x' is assigned a value but never used  no-unused-vars",
      "app/x.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it("keeps at most the limit", () => {
    const output = Array.from({ length: 50 }, (_, i) => ` FAIL  t.test.ts > case ${i}`).join("\n");
    expect(failureLines(output, 3)).toHaveLength(3);
  });
});
