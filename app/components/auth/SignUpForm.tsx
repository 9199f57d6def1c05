import { useState } from "react";
import { Link } from "react-router";
import {
  EmailField,
  Field,
  FormMessage,
  PasswordField,
  ScriptForm,
  SubmitButton,
} from "~/components/forms";
import { signUpSchema } from "~/lib/auth-forms";
import { signUp } from "~/lib/auth-client";
import { useAuthForm } from "./useAuthForm";

/** Name, email and password; then "check your inbox" (the account is active once confirmed). */
export function SignUpForm({ next }: { next: string }) {
  const { errors, message, pending, submit } = useAuthForm();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo)
    return (
      <FormMessage
        tone="success"
        message={`Almost done: we sent a confirmation link to ${sentTo}. Open it to activate your account.`}
      />
    );
  return (
    <>
      {message ? <FormMessage tone={message.tone} message={message.text} /> : null}
      <ScriptForm
        noValidate
        className="space-y-2"
        onSubmit={(event) =>
          submit(
            event,
            signUpSchema,
            (values) => signUp({ ...values, callbackURL: next }),
            (values) => setSentTo(values.email),
          )
        }
      >
        <Field label="Name" name="name" autoComplete="name" required errors={errors.name} />
        <EmailField errors={errors.email} />
        <PasswordField
          autoComplete="new-password"
          hint="At least 8 characters."
          errors={errors.password}
        />
        <p className="pb-2 text-xs text-slate-400">
          By creating an account you agree to the{" "}
          <Link className="link" to="/legal/terms">
            Terms of Service
          </Link>{" "}
          and the{" "}
          <Link className="link" to="/legal/privacy">
            Privacy Policy
          </Link>
          .
        </p>
        <SubmitButton pending={pending} label="Create account" pendingLabel="Creating account…" />
      </ScriptForm>
    </>
  );
}
