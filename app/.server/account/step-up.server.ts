/**
 * "Confirm it's you", and the gate in front of every sensitive account action: a browser opened
 * from the desktop app confirms its password (and two-factor code) first, and every action that
 * checks a password is limited per user. docs/decisions/0018.
 */
import { isAPIError } from "better-auth/api";
import { data } from "react-router";
import { z } from "zod";
import { auth } from "../auth/auth.server";
import type { Session } from "../auth/session";
import { done, type FormResult, refuse, refuseField } from "../forms/action.server";
import { hitRateLimit } from "../security/rate-limit.server";
import { isTwoFactorEnabled } from "./account.server";
import {
  ATTEMPT_LIMIT,
  needsStepUp,
  type SessionOrigin,
  STEP_UP_REQUIRED_MESSAGE,
  tooManyAttemptsMessage,
} from "./sensitive-rules";
import { hasPassword, recordStepUp, sessionOrigin } from "./session-origin.server";

/** The "Confirm it's you" form, on every account page that has sensitive actions. */
export const stepUpSchema = z.object({
  intent: z.literal("step-up"),
  password: z.string().min(1, { error: "Enter your password." }).max(128),
  code: z.string().trim().max(32).optional(),
});

/** Actions that check a password, each with its own count per user. */
export type AttemptKind = "step-up" | "change-password" | "change-email" | "delete-account";

type Refusal = ReturnType<typeof refuse>;

/** Counts one attempt: the 429 refusal once over the limit, else null. */
export async function limitAttempts(
  intent: string,
  kind: AttemptKind,
  userId: string,
): Promise<Refusal | null> {
  const result = await hitRateLimit(
    `account:${kind}:${userId}`,
    ATTEMPT_LIMIT.max,
    ATTEMPT_LIMIT.windowSeconds,
  );
  if (result.allowed) return null;
  return data<FormResult>(
    { intent, ok: false, message: tooManyAttemptsMessage(result.retryAfter) },
    { status: 429, headers: { "Retry-After": String(result.retryAfter) } },
  );
}

export type Gate = { ok: true; origin: SessionOrigin } | { ok: false; refusal: Refusal };

/**
 * Whether a sensitive action may go ahead in this session: 403 in a desktop-opened browser that
 * has not confirmed in the last 10 minutes, 429 past the attempt limit (only for actions that
 * check a password). The origin tells the caller which device, if any, opened the session.
 */
export async function passSensitiveGate(
  intent: string,
  session: Session,
  attempts?: AttemptKind,
): Promise<Gate> {
  const origin = await sessionOrigin(session.id);
  if (!origin || needsStepUp(origin))
    return { ok: false, refusal: refuse(intent, STEP_UP_REQUIRED_MESSAGE, 403) };
  if (attempts) {
    const limited = await limitAttempts(intent, attempts, session.user.id);
    if (limited) return { ok: false, refusal: limited };
  }
  return { ok: true, origin };
}

/** Checks the signed-in user's password with Better Auth's own hashing; false when wrong. */
export async function passwordIsRight(request: Request, password: string): Promise<boolean> {
  try {
    await auth().api.verifyPassword({ headers: request.headers, body: { password } });
    return true;
  } catch (error) {
    // Wrong, too long, or no password on the account at all: all a plain "no".
    if (isAPIError(error) && error.status === "BAD_REQUEST") return false;
    throw error;
  }
}

/** Checks a code from the authenticator app against the signed-in user's TOTP secret. */
async function totpIsRight(request: Request, code: string): Promise<boolean> {
  try {
    await auth().api.verifyTOTP({ headers: request.headers, body: { code } });
    return true;
  } catch (error) {
    if (isAPIError(error) && (error.status === "UNAUTHORIZED" || error.status === "BAD_REQUEST"))
      return false;
    throw error;
  }
}

/** Whether the account page shows "Confirm it's you", and what it asks for. */
export async function stepUpState(session: Session) {
  const origin = await sessionOrigin(session.id);
  const required = !origin || needsStepUp(origin);
  if (!required) return { required: false as const };
  const [withPassword, twoFactor] = await Promise.all([
    hasPassword(session.user.id),
    isTwoFactorEnabled(session.user.id),
  ]);
  return { required: true as const, hasPassword: withPassword, twoFactor };
}

export const STEP_UP_DONE_MESSAGE =
  "Thank you. For the next 10 minutes you can change your email, password, two-factor settings and sign-ins here.";

/** The "step-up" intent: password (and code), then sensitive actions are open for 10 minutes. */
export async function confirmIdentity(
  request: Request,
  session: Session,
  input: z.output<typeof stepUpSchema>,
) {
  const intent = input.intent;
  const limited = await limitAttempts(intent, "step-up", session.user.id);
  if (limited) return limited;
  if (!(await hasPassword(session.user.id)))
    return refuse(
      intent,
      "This account has no password. Sign out, then sign in again with Google to do this.",
    );
  if (!(await passwordIsRight(request, input.password)))
    return refuseField(intent, "password", "The password is not right.");
  if (await isTwoFactorEnabled(session.user.id)) {
    if (!input.code)
      return refuseField(intent, "code", "Enter the code from your authenticator app.");
    if (!(await totpIsRight(request, input.code)))
      return refuseField(
        intent,
        "code",
        "That code is not right. Check the time on your phone and try again.",
      );
  }
  await recordStepUp(session.id);
  return done(intent, STEP_UP_DONE_MESSAGE);
}
