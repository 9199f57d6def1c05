import { APIError, createAuthMiddleware } from "better-auth/api";

/**
 * The Better Auth endpoints a browser or the desktop app may call over HTTP (`/api/auth/*`), by
 * the path each endpoint declares. Everything else Better Auth and its plugins register answers
 * 404 over HTTP and stays callable only by our own server (`auth().api.*`), after the checks our
 * actions make: the role, "Confirm it's you", the audit row, the billing cancellation, the
 * erasure. An allow-list, so an endpoint added by a Better Auth upgrade or a new plugin is closed
 * until someone adds it here (tests/integration/auth-endpoints.test.ts fails until they decide).
 * docs/decisions/0028.
 */
export const HTTP_AUTH_ENDPOINTS: ReadonlySet<string> = new Set([
  // Email and password: sign-up, sign-in, the verification link and asking for a new one.
  "/sign-up/email",
  "/sign-in/email",
  "/verify-email",
  "/send-verification-email",
  // Password reset: the request, the link in the mail (redirects to the form), the new password.
  "/request-password-reset",
  "/reset-password/:token",
  "/reset-password",
  "/sign-out",
  "/get-session",
  // Two-factor: the second step of a sign-in, and turning it on or off (security page).
  "/two-factor/verify-totp",
  "/two-factor/verify-backup-code",
  "/two-factor/enable",
  "/two-factor/disable",
  // This browser's sign-ins (held behind "Confirm it's you" for desktop-opened browsers).
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  // Google: the redirect out and the provider's callback.
  "/sign-in/social",
  "/callback/:id",
  // The site's desktop plugin: the app → web sign-in (app/.server/auth/desktop-plugin.ts).
  "/sign-in/desktop-token",
  // Better Auth's health answer and the page its OAuth errors redirect to.
  "/ok",
  "/error",
]);

/**
 * The first hook Better Auth runs for every endpoint call. A call from the router carries the HTTP
 * request; `auth().api.*` from our own server does not, and passes.
 */
export const refuseUnlistedHttpEndpoints = createAuthMiddleware(async (ctx) => {
  if (ctx.request === undefined) return;
  if (HTTP_AUTH_ENDPOINTS.has(ctx.path ?? "")) return;
  throw new APIError("NOT_FOUND", { message: "Not found" });
});
