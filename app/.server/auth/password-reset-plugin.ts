import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { db } from "../db";
import { kickJobs } from "../jobs/kick";
import { queuePasswordReset, requestBody, RESET_ANSWER } from "./password-reset-request";

/**
 * Over HTTP (the form's action and any client), a well-formed request is queued and answered at
 * once; the job's own call (no request) goes through to Better Auth. A malformed body goes on to
 * Better Auth's endpoint too, for its usual 400. The rate limit and the origin check run before
 * this, as for every endpoint.
 */
export function passwordResetQueued() {
  return {
    id: "password-reset-queued",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/request-password-reset",
          handler: createAuthMiddleware(async (ctx) => {
            if (!ctx.request) return;
            const parsed = requestBody.safeParse(ctx.body);
            if (!parsed.success) return;
            const email = parsed.data.email.toLowerCase();
            await queuePasswordReset(db(), email);
            kickJobs();
            return ctx.json(RESET_ANSWER);
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
