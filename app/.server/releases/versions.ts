import semver from "semver";
import { z } from "zod";

/** Semantic versions, optionally with a pre-release tag: 1.4.0, 2.0.0-beta.3. No build metadata. */
export const versionSchema = z
  .string()
  .max(64)
  .regex(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/, {
    error: "version must look like 1.4.0 or 2.0.0-beta.1",
  })
  .refine((value) => semver.valid(value) !== null, { error: "version is not valid semver" });

/**
 * The version in use counted for an update check that names no release of ours, and the row the
 * operator's pages fold every version past the listed ones into.
 */
export const OTHER_VERSION = "other";

/** Versions seen lately and whether they are valid: every app call and poll names one of a few. */
const checked = new Map<string, boolean>();

export function isVersion(value: string | undefined): value is string {
  // Longer is never valid (and would not be worth remembering).
  if (value === undefined || value.length > 64) return false;
  let valid = checked.get(value);
  if (valid === undefined) {
    valid = versionSchema.safeParse(value).success;
    if (checked.size >= 1_000) checked.clear();
    checked.set(value, valid);
  }
  return valid;
}

/** Newest first, by semver precedence (2.0.0 > 2.0.0-beta.2 > 1.10.0 > 1.9.0). */
export function compareVersionsDesc(a: string, b: string): number {
  return semver.rcompare(a, b);
}

export function isNewer(candidate: string, current: string): boolean {
  return semver.gt(candidate, current);
}

export function isOlder(candidate: string, reference: string): boolean {
  return semver.lt(candidate, reference);
}
