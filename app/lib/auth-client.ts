import { adminClient, twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

/** The browser's Better Auth client; it talks to /api/auth on this origin only. */
export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [adminClient(), twoFactorClient()],
});

/** Every auth helper answers with success or the failure message as text, for the form to show. */
export type AuthResult =
  { ok: true; twoFactorRequired?: boolean } | { ok: false; message: string; status: number };

interface BetterAuthError {
  message?: string;
  status: number;
  statusText?: string;
  code?: string;
}

const MESSAGES: Record<string, string> = {
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
  // The page was opened at an address the server was not configured for (SITE_URL).
  INVALID_ORIGIN:
    "Signing in is blocked at this address. Open the site at its usual address, or ask whoever runs it to set SITE_URL to the address you are using.",
};

function toResult(error: BetterAuthError | null): AuthResult {
  if (!error) return { ok: true };
  if (error.status === 429) {
    return { ok: false, status: 429, message: "Too many attempts. Wait a minute and try again." };
  }
  const message =
    (error.code && MESSAGES[error.code]) ||
    (/invalid origin/i.test(error.message ?? "") ? MESSAGES.INVALID_ORIGIN : undefined) ||
    error.message ||
    error.statusText ||
    "Something went wrong. Please try again.";
  return { ok: false, status: error.status, message };
}

async function run(call: () => Promise<{ error: BetterAuthError | null }>): Promise<AuthResult> {
  try {
    return toResult((await call()).error);
  } catch {
    return { ok: false, status: 0, message: "Could not reach the server. Check your connection." };
  }
}

/** Signs in; `twoFactorRequired` means the password was right and a TOTP or backup code is next. */
export async function signIn(input: {
  email: string;
  password: string;
  callbackURL: string;
}): Promise<AuthResult> {
  try {
    const { data, error } = await authClient.signIn.email(input);
    if (error) return toResult(error);
    const twoFactor = Boolean(
      data && typeof data === "object" && "twoFactorRedirect" in data && data.twoFactorRedirect,
    );
    return { ok: true, twoFactorRequired: twoFactor };
  } catch {
    return { ok: false, status: 0, message: "Could not reach the server. Check your connection." };
  }
}

export function verifyTotp(code: string) {
  return run(() => authClient.twoFactor.verifyTotp({ code }));
}

export function verifyBackupCode(code: string) {
  return run(() => authClient.twoFactor.verifyBackupCode({ code }));
}

export async function enableTwoFactor(password: string) {
  try {
    const { data, error } = await authClient.twoFactor.enable({ password });
    if (error || !data || data.method !== "totp")
      return { ...toResult(error ?? { status: 500 }), setup: null };
    return { ok: true as const, setup: { totpURI: data.totpURI, backupCodes: data.backupCodes } };
  } catch {
    return { ok: false as const, status: 0, message: "Could not reach the server.", setup: null };
  }
}

export function disableTwoFactor(password: string) {
  return run(() => authClient.twoFactor.disable({ password }));
}

export function signUp(input: {
  name: string;
  email: string;
  password: string;
  callbackURL: string;
}) {
  return run(() => authClient.signUp.email(input));
}

export function signInWithGoogle(callbackURL: string) {
  return run(() => authClient.signIn.social({ provider: "google", callbackURL }));
}

export function requestPasswordReset(email: string) {
  return run(() => authClient.requestPasswordReset({ email, redirectTo: "/auth?view=reset" }));
}

export function resetPassword(input: { token: string; newPassword: string }) {
  return run(() => authClient.resetPassword(input));
}

export function signOut() {
  return run(() => authClient.signOut());
}
