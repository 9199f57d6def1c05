import { adminClient, twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { authFailureMessage } from "./auth-messages";

/** The browser's Better Auth client; it talks to /api/auth on this origin only. */
export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [adminClient(), twoFactorClient()],
});

/** Every auth helper answers with success or the failure message as text, for the form to show. */
export type AuthResult = { ok: true } | { ok: false; message: string; status: number };

interface BetterAuthError {
  message?: string;
  status: number;
  statusText?: string;
  code?: string;
}

function toResult(error: BetterAuthError | null): AuthResult {
  if (!error) return { ok: true };
  return { ok: false, status: error.status, message: authFailureMessage(error) };
}

async function run(call: () => Promise<{ error: BetterAuthError | null }>): Promise<AuthResult> {
  try {
    return toResult((await call()).error);
  } catch {
    return { ok: false, status: 0, message: "Could not reach the server. Check your connection." };
  }
}

export function verifyTotp(code: string) {
  return run(() => authClient.twoFactor.verifyTotp({ code }));
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

export function signInWithGoogle(callbackURL: string) {
  return run(() => authClient.signIn.social({ provider: "google", callbackURL }));
}

export function signOut() {
  return run(() => authClient.signOut());
}
