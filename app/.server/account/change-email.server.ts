/**
 * The "change-email" intent of the profile page. Whoever asks must prove it is the owner (the
 * password, or for a Google-only account a sign-in of the last 10 minutes), and the change then
 * waits for two links: one to the address in use now, then one to the new address (Better Auth's
 * own change-email flow; the first mail is sent from auth.server.ts).
 */
import { z } from "zod";
import { emailSchema } from "~/lib/auth-forms";
import { auth } from "../auth/auth.server";
import type { Session } from "../auth/session";
import { done, refuse, refuseField } from "../forms/action.server";
import { logger } from "../logger";
import { SIGN_IN_AGAIN_FOR_EMAIL_MESSAGE, signedInRecently } from "./sensitive-rules";
import { hasPassword } from "./session-origin.server";
import { passSensitiveGate, passwordIsRight } from "./step-up.server";

export const changeEmailSchema = z.object({
  intent: z.literal("change-email"),
  email: emailSchema,
  // Optional here: a Google-only account has none, and is checked by the age of its sign-in.
  password: z.string().max(128).optional(),
});

/** Where both links land; the page compares `to` with the address in use to say which step it is. */
export function emailChangeCallback(newEmail: string): string {
  return `/account/profile?email=confirmed&to=${encodeURIComponent(newEmail)}`;
}

export async function requestEmailChange(
  request: Request,
  session: Session,
  input: z.output<typeof changeEmailSchema>,
) {
  const intent = input.intent;
  const newEmail = input.email.toLowerCase();
  if (newEmail === session.user.email.toLowerCase())
    return refuseField(intent, "email", "That is already your email address.");
  const gate = await passSensitiveGate(intent, session, "change-email");
  if (!gate.ok) return gate.refusal;

  if (await hasPassword(session.user.id)) {
    if (!input.password) return refuseField(intent, "password", "Enter your password.");
    if (!(await passwordIsRight(request, input.password)))
      return refuseField(intent, "password", "The password is not right.");
  } else if (!signedInRecently(gate.origin)) {
    return refuse(intent, SIGN_IN_AGAIN_FOR_EMAIL_MESSAGE, 403);
  }

  try {
    await auth().api.changeEmail({
      headers: request.headers,
      body: { newEmail, callbackURL: emailChangeCallback(newEmail) },
    });
  } catch (error) {
    logger().error({ err: error }, "email change request failed");
    return refuse(intent, "Could not start the change. Please try again.", 500);
  }
  // Said the same way whether or not another account uses the new address: the page must not
  // tell anyone which addresses have accounts (Better Auth then sends nothing).
  return done(
    intent,
    `We sent a link to ${session.user.email}. Open it to confirm the change; then we send a last link to ${newEmail}.`,
  );
}
