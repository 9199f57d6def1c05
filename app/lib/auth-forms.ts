import { z } from "zod";

/** The rules of the sign-in page's forms: checked by its action, and in the browser before sending. */
export const emailSchema = z.email({ error: "Enter an email address like name@example.com." });
export const passwordSchema = z
  .string()
  .min(8, { error: "Use at least 8 characters." })
  .max(128, { error: "Use at most 128 characters." });

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, { error: "Enter your password." }),
});

export const signUpSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { error: "Enter your name." })
    .max(100, { error: "Use at most 100 characters." }),
  email: emailSchema,
  password: passwordSchema,
});

export const forgotSchema = z.object({ email: emailSchema });

/** The new password from a reset link (the link's token travels with it). */
export const resetSchema = z
  .object({
    intent: z.literal("reset"),
    token: z.string().min(1).max(200),
    password: passwordSchema,
    confirm: z.string(),
  })
  .refine((value) => value.password === value.confirm, {
    path: ["confirm"],
    error: "The two passwords are not the same.",
  });

export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(6, { error: "Enter the code." })
    .max(32, { error: "That is too long for a code." }),
});

export type FieldErrors = Partial<Record<string, string[]>>;

/** Every field's errors (not only the first), keyed by field name. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** Which second factor the sign-in asks for. */
export type SecondFactor = "totp" | "backup";

/** What the sign-in page's action answers (app/routes/auth/auth.tsx), for its forms. */
export interface AuthFormResult {
  intent: string;
  ok: boolean;
  message: string;
  errors?: FieldErrors;
  /** The password was right: this second factor is asked for next. */
  step?: SecondFactor;
  /** A mail was sent to this address (sign-up confirmation, reset link). */
  sentTo?: string;
  /** What was typed, to fill the form again after a post without JavaScript (never a password). */
  values?: { name?: string; email?: string };
}
