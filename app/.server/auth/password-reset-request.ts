/**
 * What the "forgot password" endpoint and its job share (issue 32, point 12): the request's
 * shape, Better Auth's answer, and queueing the job by its name. A leaf: the endpoint's plugin
 * (which Better Auth's configuration lists) imports this, never the job, whose handler calls
 * Better Auth; so neither needs the other, and no import of either closes a circle.
 */
import { z } from "zod";
import type { Executor } from "../db";
import { enqueueJob } from "../jobs/queue.server";
import { sealSecret } from "../security/key-vault.server";

export const PASSWORD_RESET_JOB = "auth.password-reset";
/** The job's attempts (its definition in password-reset.server.ts says the same). */
export const PASSWORD_RESET_ATTEMPTS = 8;

/** Where the link in the mail leads: the sign-in page's "new password" view. */
export const RESET_PAGE = "/auth?view=reset";

/** Better Auth's own answer, word for word, for both kinds of address. */
export const RESET_ANSWER = {
  status: true,
  message: "If this email exists in our system, check your email for the reset link",
} as const;

export const requestBody = z.object({ email: z.email().max(320) });

/** Queues the reset for `email`, sealed as queued mail is. */
export async function queuePasswordReset(executor: Executor, email: string): Promise<void> {
  await enqueueJob(executor, {
    kind: PASSWORD_RESET_JOB,
    payload: { sealed: sealSecret(JSON.stringify({ email })) },
    maxAttempts: PASSWORD_RESET_ATTEMPTS,
  });
}
