/**
 * "Forgot password" answers the same way, after the same work, whether the address has an
 * account or not (issue 32, point 12): Better Auth's endpoint made a token and queued a mail for
 * a registered address before answering, and only looked a dummy value up for anyone else, so
 * the answer came about 14 ms later for a customer's address. Here every HTTP request only
 * stores one job (the address sealed, as queued mail is) and answers; the job asks Better Auth
 * for the reset, which finds the account or not, away from the request.
 */
import { z } from "zod";
import { defineJob } from "../jobs/define";
import { PermanentJobError } from "../jobs/worker.server";
import { openSecret } from "../security/key-vault.server";
import { auth } from "./auth.server";
import {
  PASSWORD_RESET_ATTEMPTS,
  PASSWORD_RESET_JOB,
  RESET_PAGE,
  requestBody,
} from "./password-reset-request";

/** The job: Better Auth makes the token and queues the mail, if the address has an account. */
export async function requestPasswordReset(sealed: unknown): Promise<void> {
  let email: string;
  try {
    email = requestBody.parse(JSON.parse(openSecret(sealed))).email;
  } catch {
    // Sealed under another key (KEYS_ENCRYPTION_SECRET changed) or damaged: retrying cannot help.
    throw new PermanentJobError("password reset request cannot be opened");
  }
  await auth().api.requestPasswordReset({ body: { email, redirectTo: RESET_PAGE } });
}

export const passwordResetJob = defineJob({
  name: PASSWORD_RESET_JOB,
  lane: "mail",
  payload: z.object({ sealed: z.unknown().refine((value) => value !== undefined) }),
  timeoutMs: 30_000,
  maxAttempts: PASSWORD_RESET_ATTEMPTS,
  async handler({ sealed }) {
    await requestPasswordReset(sealed);
  },
});
