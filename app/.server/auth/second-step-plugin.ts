import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { db } from "../db";
import { queueAccountMail } from "../account/security-mail.server";
import { kickJobs } from "../jobs/kick";

/** The second step of a sign-in: a code from the authenticator app, or a backup code. */
export const SECOND_STEP_PATHS: ReadonlySet<string> = new Set([
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/verify-otp",
]);

/**
 * Better Auth's answers when wrong second-step codes add up (issue 32, point 9): five on one
 * pending sign-in void it, ten in a row on one account lock its two-factor sign-in for 15
 * minutes, whatever address each came from. Either means the password is known to someone.
 */
const TOO_MANY_WRONG_CODES: ReadonlySet<string> = new Set([
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
  "ACCOUNT_TEMPORARILY_LOCKED",
]);

/** Better Auth's cookie of a pending sign-in (the plugin's TWO_FACTOR_COOKIE_NAME). */
const PENDING_COOKIE = "two_factor";

/** At most one warning an hour per account, however long an attack goes on. */
const WARNING_EVERY_MS = 60 * 60 * 1000;

/** Whose pending sign-in a request is, read before the attempt may void it. */
const pendingOwner = new WeakMap<Request, string>();

/**
 * Tells an account's owner by mail when wrong second-step codes void a pending sign-in or lock
 * the account. The limits are Better Auth's own (its two-factor plugin); this adds the mail.
 */
export function secondStepWatch() {
  return {
    id: "second-step-watch",
    hooks: {
      before: [
        {
          matcher: (ctx) => SECOND_STEP_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            if (!ctx.request) return;
            const cookie = ctx.context.createAuthCookie(PENDING_COOKIE);
            const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
            if (!identifier) return;
            const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
            if (pending?.value) pendingOwner.set(ctx.request, pending.value);
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => SECOND_STEP_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const userId = ctx.request ? pendingOwner.get(ctx.request) : undefined;
            const returned = ctx.context.returned;
            if (!userId || !(returned instanceof APIError)) return;
            const code = (returned.body as { code?: unknown } | undefined)?.code;
            if (typeof code !== "string" || !TOO_MANY_WRONG_CODES.has(code)) return;
            await queueAccountMail(db(), {
              template: "wrong-second-step-codes",
              userId,
              dedupe: String(Math.floor(Date.now() / WARNING_EVERY_MS)),
            });
            kickJobs();
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
