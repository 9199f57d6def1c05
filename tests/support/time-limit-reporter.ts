/**
 * Lists, at the end of a Vitest run, every test that took more than a third of its time limit.
 * Issue 38 asks for a limit at least three times each test's usual time, so a busy machine slows
 * the run down instead of failing it; a test that grew towards its limit (the footprint test ran
 * 82 s of 90 s) shows here, in a passing run, before a busy day fails it. A list, not a failure:
 * a loaded machine would otherwise fail the run this is meant to keep passing.
 */
import type { Reporter, TestCase, Vitest } from "vitest/node";

export interface CloseToLimit {
  name: string;
  seconds: number;
  limitSeconds: number;
}

/** The tests of `results` that used more than a third of their limit, slowest share first. */
export function closeToTheirLimit(
  results: readonly { name: string; durationMs: number; limitMs: number }[],
): CloseToLimit[] {
  return results
    .filter((result) => result.limitMs > 0 && result.durationMs * 3 > result.limitMs)
    .sort((a, b) => b.durationMs / b.limitMs - a.durationMs / a.limitMs)
    .map((result) => ({
      name: result.name,
      seconds: Math.round(result.durationMs / 100) / 10,
      limitSeconds: Math.round(result.limitMs / 100) / 10,
    }));
}

export default class TimeLimitReporter implements Reporter {
  private defaultLimitMs = 5_000;
  private readonly results: { name: string; durationMs: number; limitMs: number }[] = [];

  onInit(vitest: Vitest) {
    this.defaultLimitMs = vitest.config.testTimeout;
  }

  onTestCaseResult(test: TestCase) {
    const durationMs = test.diagnostic()?.duration;
    if (durationMs === undefined || test.result().state !== "passed") return;
    this.results.push({
      name: `${test.module.relativeModuleId} > ${test.fullName}`,
      durationMs,
      limitMs: test.options.timeout ?? this.defaultLimitMs,
    });
  }

  onTestRunEnd() {
    const close = closeToTheirLimit(this.results);
    if (close.length === 0) return;
    console.log(`\n${close.length} test(s) took more than a third of their time limit:`);
    for (const test of close)
      console.log(`  ${test.seconds} s of ${test.limitSeconds} s  ${test.name}`);
  }
}
