import { adminClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

/** The browser's Better Auth client; it talks to /api/auth on this origin only. */
export const authClient = createAuthClient({ basePath: "/api/auth", plugins: [adminClient()] });

/** Every auth helper answers with success or the failure message as text, for the form to show. */
export type AuthResult = { ok: true } | { ok: false; message: string; status: number };

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
};

function toResult(error: BetterAuthError | null): AuthResult {
  if (!error) return { ok: true };
  if (error.status === 429) {
    return { ok: false, status: 429, message: "Too many attempts. Wait a minute and try again." };
  }
  const message =
    (error.code && MESSAGES[error.code]) ||
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

export function signIn(input: { email: string; password: string; callbackURL: string }) {
  return run(() => authClient.signIn.email(input));
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
