import fs from "node:fs";
import { SCRATCH_ENV } from "../../scripts/lib/scratch";

/** Removes the run's temporary folder (claimed in env.ts) once every browser has closed. */
export default function globalTeardown() {
  const root = process.env[SCRATCH_ENV];
  if (root) fs.rmSync(root, { recursive: true, force: true });
}
