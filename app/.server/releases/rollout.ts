import { createHash } from "node:crypto";

/**
 * A client's stable place in a rollout: 0 ≤ bucket < 100, from a hash of an id it sends (or its
 * IP). The same id always lands in the same bucket, so raising the percentage only adds clients.
 * The release version is mixed in so each release rolls out to a different first 10 %.
 */
export function rolloutBucket(clientId: string, version: string): number {
  const digest = createHash("sha256").update(`${version}\0${clientId}`).digest();
  return (digest.readUInt32BE(0) % 10_000) / 100;
}

export function inRollout(clientId: string, version: string, percent: number): boolean {
  if (percent >= 100) return true;
  if (percent <= 0) return false;
  return rolloutBucket(clientId, version) < percent;
}
