/**
 * Deleting an account: the password is checked here, on the server, before anything is deleted;
 * an account without a password (Google only) confirms by a single-use link sent to its address.
 */
import { redirect } from "react-router";
import { z } from "zod";
import { auth } from "../auth/auth.server";
import type { Session } from "../auth/session";
import { db } from "../db";
import { env } from "../env";
import { done, refuse, refuseField } from "../forms/action.server";
import { kickJobs } from "../jobs/kick";
import { logger } from "../logger";
import { burnOneTimeToken, issueOneTimeToken } from "../security/one-time-tokens.server";
import { hashToken, randomToken } from "../security/tokens";
import { queueAccountMail } from "./security-mail.server";
import { hasPassword } from "./session-origin.server";
import { passSensitiveGate, passwordIsRight } from "./step-up.server";

export const DELETE_LINK_TTL_MS = 60 * 60 * 1000;

export const deleteAccountSchema = z.object({
  intent: z.literal("delete-account"),
  // Optional here: a Google-only account has none and confirms by mail instead.
  password: z.string().max(128).optional(),
});

export const confirmDeletionSchema = z.object({
  intent: z.literal("confirm-delete"),
  token: z.string().min(1).max(200),
});

/** The emailed link: the security page, which asks once more before deleting (a GET never does). */
export function deletionLink(token: string): string {
  return `${env().SITE_URL}/account/security?delete=${encodeURIComponent(token)}#delete`;
}

/**
 * Asks Better Auth to delete the signed-in user, with its hooks (billing cancelled, personal data
 * erased, the goodbye mail) and its cookie clearing. Only after our own checks: the deletion goes
 * through a single-use token minted here for one minute, so it never depends on Better Auth's
 * "fresh session needs no password" rule.
 */
async function eraseAccount(request: Request, intent: string, userId: string) {
  const context = await auth().$context;
  const token = randomToken();
  await context.internalAdapter.createVerificationValue({
    identifier: `delete-account-${token}`,
    value: userId,
    expiresAt: new Date(Date.now() + 60_000),
  });
  const response = await auth().api.deleteUser({
    headers: request.headers,
    body: { token },
    asResponse: true,
  });
  if (!response.ok) {
    logger().error({ status: response.status }, "account deletion failed after its checks");
    return refuse(intent, "Could not delete the account. Please try again.", 500);
  }
  // Better Auth's cookies are cleared too, the cached session included.
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect("/?account=deleted", { headers });
}

/** The "delete-account" intent: the password, or a confirmation link by mail. */
export async function deleteAccount(
  request: Request,
  session: Session,
  input: z.output<typeof deleteAccountSchema>,
) {
  const intent = input.intent;
  const gate = await passSensitiveGate(intent, session, "delete-account");
  if (!gate.ok) return gate.refusal;
  const { id: userId, email } = session.user;

  if (await hasPassword(userId)) {
    if (!input.password) return refuseField(intent, "password", "Enter your password.");
    if (!(await passwordIsRight(request, input.password)))
      return refuseField(intent, "password", "The password is not right.");
    return eraseAccount(request, intent, userId);
  }

  await db().transaction(async (tx) => {
    const token = await issueOneTimeToken(tx, {
      purpose: "delete_account",
      userId,
      ttlMs: DELETE_LINK_TTL_MS,
    });
    await queueAccountMail(tx, {
      template: "confirm-deletion",
      userId,
      dedupe: hashToken(token),
      to: email,
      url: deletionLink(token),
    });
  });
  kickJobs();
  return done(intent, `We sent a link to ${email} to confirm.`);
}

/** The "confirm-delete" intent: the page opened from the emailed link, confirmed with a click. */
export async function confirmDeletion(
  request: Request,
  session: Session,
  input: z.output<typeof confirmDeletionSchema>,
) {
  const intent = input.intent;
  const gate = await passSensitiveGate(intent, session, "delete-account");
  if (!gate.ok) return gate.refusal;
  const burnt = await burnOneTimeToken(db(), input.token, "delete_account");
  if (!burnt.ok || burnt.userId !== session.user.id)
    return refuse(intent, "This link has expired or was already used. Ask for a new one below.");
  return eraseAccount(request, intent, session.user.id);
}
