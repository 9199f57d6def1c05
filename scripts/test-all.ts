/**
 * npm test: every check, each started as soon as what it needs is done.
 *
 *   lint ──────┐
 *   typecheck ─┤
 *   build ─────┴─ unit + HTTP tests (Vitest) ── browser tests (Playwright)
 *
 * Lint and typecheck read only the sources, so they run beside the build. The two test runners
 * need only the build, but each keeps both cores busy: run side by side on this 2-core machine,
 * the browser tests timed out (load average 15), so they run one after the other, the browser
 * tests after Vitest whether or not it passed. Each step's output is printed whole when it ends,
 * with its time; a failure does not stop the steps that do not need it, so one run shows every
 * problem. Exits non-zero if any step failed.
 */
import { spawn } from "node:child_process";
import { failureLines } from "./lib/failure-lines";

interface Step {
  name: string;
  command: string;
  /** Steps that must pass first. */
  after?: string[];
  /** Steps that must have ended first, passed or not (they would compete for the cores). */
  afterEnded?: string[];
}

const STEPS: Step[] = [
  { name: "lint", command: "npm run -s lint" },
  { name: "typecheck", command: "npm run -s typecheck" },
  { name: "build", command: "npm run -s build" },
  { name: "unit and HTTP tests", command: "npm run -s test:unit", after: ["build"] },
  {
    name: "browser tests",
    command: "npm run -s test:e2e",
    after: ["build"],
    afterEnded: ["unit and HTTP tests"],
  },
];

interface Result {
  ok: boolean;
  seconds: number;
  /** The lines of a failed step's output that name what failed. */
  failures: string[];
}

function run(step: Step): Promise<Result> {
  const started = Date.now();
  console.log(`▶ ${step.name}: ${step.command}`);
  return new Promise((resolve) => {
    const child = spawn(step.command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("close", (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const ok = code === 0;
      process.stdout.write(`\n──── ${step.name} (${seconds} s) ────\n`);
      process.stdout.write(Buffer.concat(chunks));
      console.log(`${ok ? "✔" : "✘"} ${step.name}: ${ok ? "passed" : `failed (${code})`}\n`);
      resolve({ ok, seconds, failures: ok ? [] : failureLines(Buffer.concat(chunks).toString()) });
    });
  });
}

async function main(): Promise<number> {
  const started = Date.now();
  const results = new Map<string, Promise<Result>>();
  for (const step of STEPS) {
    const needs = (step.after ?? []).map((name) => results.get(name)!);
    const ended = Promise.all((step.afterEnded ?? []).map((name) => results.get(name)!));
    results.set(
      step.name,
      Promise.all([Promise.all(needs), ended]).then(([done]) =>
        done.every((result) => result.ok)
          ? run(step)
          : (console.log(`✘ ${step.name}: not run (${step.after?.join(", ")} failed)`),
            { ok: false, seconds: 0, failures: [] }),
      ),
    );
  }
  const all = await Promise.all(STEPS.map(async (step) => [step, await results.get(step.name)!]));
  console.log(`npm test: ${Math.round((Date.now() - started) / 1000)} s`);
  for (const [step, result] of all as [Step, Result][]) {
    console.log(`  ${result.ok ? "✔" : "✘"} ${step.name} (${result.seconds} s)`);
    for (const line of result.failures) console.log(`      ${line.trim()}`);
  }
  return all.every(([, result]) => (result as Result).ok) ? 0 : 1;
}

process.exitCode = await main();
