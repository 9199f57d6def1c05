import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import { sessionOrigin } from "../account/session-origin.server";
import { needsStepUp, STEP_UP_REQUIRED_MESSAGE } from "../account/sensitive-rules";

/**
 * Endpoints only our own server calls (`auth().api.*`, after its own checks: the password,
 * "Confirm it's you", the attempt limit, the confirmation mail to the old address). They are not
 * on the HTTP allow-list (http-endpoints.ts), so over HTTP they answer 404; the step-up rule
 * below still holds for them as a second line.
 */
export const SERVER_ONLY_PATHS: ReadonlySet<string> = new Set([
  "/change-email",
  "/change-password",
  "/delete-user",
  "/delete-user/callback",
]);

/**
 * Endpoints a browser opened from the desktop app may use only after "Confirm it's you": what
 * would let a stolen device token keep or take the account (its email, password, second factor,
 * sign-in methods, Google tokens, deletion) or sign the owner out.
 */
export const STEP_UP_PATHS: ReadonlySet<string> = new Set([
  ...SERVER_ONLY_PATHS,
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  "/two-factor/enable",
  "/two-factor/disable",
  "/two-factor/get-totp-uri",
  "/two-factor/generate-backup-codes",
  "/link-social",
  "/unlink-account",
  "/get-access-token",
  "/refresh-token",
]);

/**
 * The rules of docs/decisions/0018 inside Better Auth, so that they hold for every caller: the
 * account pages check them first (to show the form and the message), and this catches the
 * browser's own calls (two-factor settings) and anything that skips the pages.
 */
export function sensitiveActions() {
  return {
    id: "sensitive-actions",
    hooks: {
      before: [
        {
          matcher: (ctx) => STEP_UP_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            // The row, not the cookie cache: a confirmation counts at once.
            const found = await getSessionFromCtx(ctx, { disableCookieCache: true });
            // No session: the endpoint's own middleware refuses the request.
            if (!found) return;
            const origin = await sessionOrigin(found.session.id);
            if (!origin || needsStepUp(origin)) {
              throw new APIError("FORBIDDEN", {
                message: STEP_UP_REQUIRED_MESSAGE,
                code: "STEP_UP_REQUIRED",
              });
            }
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
