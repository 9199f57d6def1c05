/**
 * The rules for sensitive account actions (email, password, two-factor, deletion, signing out
 * sessions and devices), as pure functions: the account pages and the Better Auth hook apply the
 * same ones. See docs/decisions/0018.
 */

/** How long a confirmed password ("Confirm it's you") lets a desktop-opened browser act. */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

/** How recent a sign-in must be for an account without a password to change its email. */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

/** Password-checking actions per user: a stolen session cannot guess the password for long. */
export const ATTEMPT_LIMIT = { max: 5, windowSeconds: 15 * 60 } as const;

export const STEP_UP_REQUIRED_MESSAGE =
  "Confirm your password first: this browser was signed in from the desktop app.";

/** Admin actions (roles, refunds, grants, tokens, releases…) from a desktop-opened browser. */
export const ADMIN_STEP_UP_REQUIRED_MESSAGE =
  "Confirm your password first: this browser was signed in from the desktop app. Confirm it on your account's Security page (/account/security), then try again.";

export const SIGN_IN_AGAIN_FOR_EMAIL_MESSAGE = "Sign in again to change your email.";

/** What the session row says about how this browser signed in. */
export interface SessionOrigin {
  createdAt: Date;
  /** The desktop device whose token opened this browser session, or null for a normal sign-in. */
  desktopDeviceId: string | null;
  /** When the password (and code) was last confirmed in this session. */
  stepUpAt: Date | null;
}

export function isDesktopSession(origin: SessionOrigin): boolean {
  return origin.desktopDeviceId !== null;
}

/**
 * Whether a sensitive action must wait for "Confirm it's you". Only browsers opened from the
 * desktop app: they never entered a password or a two-factor code, so a stolen device token must
 * not be enough to take the account.
 */
export function needsStepUp(origin: SessionOrigin, now: Date = new Date()): boolean {
  if (!isDesktopSession(origin)) return false;
  if (!origin.stepUpAt) return true;
  const age = now.getTime() - origin.stepUpAt.getTime();
  // A timestamp from the future is not trusted either (clock trouble or a forged row).
  return age < 0 || age > STEP_UP_WINDOW_MS;
}

/**
 * For accounts without a password (Google only): the sign-in that proves it is them must be
 * recent, and must be a real sign-in, not a browser opened from the desktop app.
 */
export function signedInRecently(origin: SessionOrigin, now: Date = new Date()): boolean {
  if (isDesktopSession(origin)) return false;
  const age = now.getTime() - origin.createdAt.getTime();
  return age >= 0 && age <= RECENT_SIGN_IN_MS;
}

/** "Too many attempts. Try again in N minutes." from the limiter's seconds to wait. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
