/**
 * Queues a check of a team's seats against what it pays for (issue 53, finding 1): a leaf, so the
 * billing code that stores a team's subscription queues it without importing the teams domain
 * (the job itself is `trim-seats.server.ts`, registered by its name).
 */
import type { Executor } from "../db";
import { enqueueJob } from "../jobs/queue.server";

export const TRIM_SEATS_JOB = "teams.trim-seats";

/**
 * Now (no key: every change of a team's subscription is checked after its transaction commits),
 * and at each moment the paid count may fall by itself (a cycle's end, a first charge), once per
 * moment: then no webhook needs to arrive for the seats to follow the payment.
 */
export async function queueSeatTrim(
  executor: Executor,
  organizationId: string,
  moments: readonly (Date | null)[] = [],
  now = new Date(),
): Promise<void> {
  await enqueueJob(executor, { kind: TRIM_SEATS_JOB, payload: { organizationId } });
  for (const moment of moments) {
    if (!moment || moment <= now) continue;
    // A second after: the subscription that ends at that moment gives nothing from then.
    const at = new Date(moment.getTime() + 1000);
    await enqueueJob(executor, {
      kind: TRIM_SEATS_JOB,
      payload: { organizationId },
      runAt: at,
      dedupeKey: `${TRIM_SEATS_JOB}:${organizationId}:${at.toISOString()}`,
    });
  }
}
