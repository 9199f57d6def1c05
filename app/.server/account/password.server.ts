/** The "change-password" intent of the security page. */
import { data } from "react-router";
import { z } from "zod";
import { passwordSchema } from "~/lib/auth-forms";
import { auth } from "../auth/auth.server";
import type { Session } from "../auth/session";
import { type FormResult, refuse, refuseField } from "../forms/action.server";
import { logger } from "../logger";
import { afterPasswordChange } from "./password-changed.server";
import { passSensitiveGate } from "./step-up.server";

export const changePasswordSchema = z.object({
  intent: z.literal("change-password"),
  currentPassword: z.string().min(1, { error: "Enter your current password." }).max(128),
  newPassword: passwordSchema,
});

/**
 * The "change-password" intent. Better Auth checks the current password and signs out every
 * other browser; it gives this browser a new session, whose cookie the returned headers carry.
 */
export async function changePassword(
  request: Request,
  session: Session,
  input: z.output<typeof changePasswordSchema>,
) {
  const intent = input.intent;
  const gate = await passSensitiveGate(intent, session, "change-password");
  if (!gate.ok) return gate.refusal;
  const response = await auth().api.changePassword({
    headers: request.headers,
    body: {
      currentPassword: input.currentPassword,
      newPassword: input.newPassword,
      revokeOtherSessions: true,
    },
    asResponse: true,
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
    if (body.code === "INVALID_PASSWORD")
      return refuseField(intent, "currentPassword", "The current password is not right.");
    if (body.code === "CREDENTIAL_ACCOUNT_NOT_FOUND")
      return refuse(
        intent,
        "This account signs in with Google and has no password. Use 'Forgot password' on the sign-in page to set one.",
      );
    return refuse(intent, body.message ?? "Could not change the password.");
  }
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);

  let message =
    "Your password was changed. Your other browsers and desktop devices were signed out.";
  try {
    await afterPasswordChange(session.user.id, gate.origin.desktopDeviceId);
  } catch (error) {
    // The password is changed and this browser has a new session: say what is left to do
    // rather than answer 500 and drop the cookie.
    logger().error({ err: error }, "signing out desktop devices after a password change failed");
    message =
      "Your password was changed, but we could not sign out your desktop devices. Sign them out below.";
  }
  return data<FormResult>({ intent, ok: true, message }, { headers });
}
