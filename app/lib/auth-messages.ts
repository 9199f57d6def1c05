/** Shown on the sign-in page when the app's sign-in link (app → web) cannot be used. */
export const WEB_SESSION_TOKEN_INVALID =
  "This sign-in link from the app has expired or was already used. Log in here instead.";

const FAILURES: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: "The email or password is not right.",
  EMAIL_NOT_VERIFIED: "Confirm your email address first: we have sent you a new link.",
  USER_ALREADY_EXISTS: "An account with this email already exists. Log in instead.",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL:
    "An account with this email already exists. Log in instead.",
  PASSWORD_TOO_SHORT: "The password needs at least 8 characters.",
  INVALID_TOKEN: "This link has expired or was already used. Ask for a new one.",
  INVALID_CODE: "That code is not right. Check the time on your phone and try again.",
  INVALID_BACKUP_CODE: "That backup code is not right, or was already used.",
  INVALID_TWO_FACTOR_COOKIE: "The sign-in took too long. Start again with your password.",
  // Five wrong codes on one sign-in void it; ten in a row lock the account's second step.
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "Too many wrong codes. Start again with your password.",
  ACCOUNT_TEMPORARILY_LOCKED:
    "Too many wrong codes: signing in to this account is paused for 15 minutes. Its owner has been told by email.",
  // The page was opened at an address the server was not configured for (SITE_URL).
  INVALID_ORIGIN:
    "Signing in is blocked at this address. Open the site at its usual address, or ask whoever runs it to set SITE_URL to the address you are using.",
};

/**
 * What a failed Better Auth call says to a person, the same whether the browser's client or a
 * form post on the server made the call.
 */
export function authFailureMessage(error: {
  status: number;
  code?: string | null;
  message?: string | null;
  statusText?: string | null;
}): string {
  const known = error.code ? FAILURES[error.code] : undefined;
  if (known) return known;
  if (error.status === 429) return "Too many attempts. Wait a minute and try again.";
  return (
    (/invalid origin/i.test(error.message ?? "") ? FAILURES.INVALID_ORIGIN : undefined) ||
    error.message ||
    error.statusText ||
    "Something went wrong. Please try again."
  );
}
