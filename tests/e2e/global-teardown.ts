import { removeRunScratch } from "../../scripts/lib/scratch";

/** Removes the run's temporary folder (claimed in env.ts) once every browser has closed. */
export default function globalTeardown() {
  removeRunScratch();
}
