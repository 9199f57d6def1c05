import { spawn } from "node:child_process";
import path from "node:path";
import { SCRATCH_ENV } from "../../scripts/lib/scratch";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Runs an operator script (tsx) with the given environment; resolves with its exit code and output. */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), script, ...args],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          TMPDIR: process.env.TMPDIR,
          // The run ends a script a test left running by this (scripts/lib/scratch.ts).
          [SCRATCH_ENV]: process.env[SCRATCH_ENV],
          LOG_LEVEL: "warn",
          ...env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
}
