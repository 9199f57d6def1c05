/**
 * The lines of a runner's output that name a failure, without colours: Vitest's "FAIL file >
 * test" and "× test", Playwright's numbered "1) [chromium] › …", ESLint's "12:5  error" and
 * tsc's "error TS2322". `npm test` repeats them at its end, so the last screen of a long run (all
 * a CI log may keep) says what failed.
 */
export function failureLines(output: string, limit = 40): string[] {
  // eslint-disable-next-line no-control-regex -- the escape sequences of terminal colours
  const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
  const named = plain
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^(FAIL\s|×\s|✘\s|\d+\) \[|\d+:\d+\s+error\s)|\berror TS\d+/.test(line));
  return [...new Set(named)].slice(0, limit);
}
