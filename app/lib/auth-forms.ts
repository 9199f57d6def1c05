import { z } from "zod";

/** The client-side checks of the auth forms; the server applies the same rules again. */
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

export const resetSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
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
