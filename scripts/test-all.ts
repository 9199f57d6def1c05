/**
 * npm test: every check, each started as soon as what it needs is done.
 *
 *   lint ──────┐
 *   typecheck ─┤
 *   build ─────┴─┬─ unit + HTTP tests (Vitest, two workers)
 *                └─ browser tests (Playwright, two workers)
 *
 * Lint and typecheck read only the sources, so they run beside the build. The two test runners
 * need only the build and run side by side: a browser test mostly waits (on Chromium, on the
 * site), so the two runners together keep both cores busy where one after the other left about
 * half of them idle. Vitest gets two workers here instead of its usual three, so the machine is
 * not so overloaded that a browser test's waits run out. Each step's output is printed whole when
 * it ends, with its time; a failure does not stop the steps that do not need it, so one run shows
 * every problem. Exits non-zero if any step failed.
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
  {
    name: "unit and HTTP tests",
    command: "npm run -s test:unit -- --maxWorkers=2",
    after: ["build"],
  },
  { name: "browser tests", command: "npm run -s test:e2e", after: ["build"] },
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
