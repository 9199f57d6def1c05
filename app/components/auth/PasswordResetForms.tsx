import { useState } from "react";
import { useNavigate } from "react-router";
import {
  EmailField,
  FormMessage,
  PasswordField,
  ScriptForm,
  SubmitButton,
} from "~/components/forms";
import { forgotSchema, resetSchema } from "~/lib/auth-forms";
import { requestPasswordReset, resetPassword } from "~/lib/auth-client";
import { useAuthForm } from "./useAuthForm";

/** "Forgot password": the address to send a reset link to (the answer never says if it exists). */
export function ForgotPasswordForm() {
  const { errors, message, pending, submit } = useAuthForm();
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo)
    return (
      <FormMessage
        tone="success"
        message={`If an account exists for ${sentTo}, a reset link is on its way. It works for 1 hour.`}
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
            forgotSchema,
            (values) => requestPasswordReset(values.email),
            (values) => setSentTo(values.email),
          )
        }
      >
        <EmailField errors={errors.email} />
        <SubmitButton pending={pending} label="Email me a reset link" pendingLabel="Sending…" />
      </ScriptForm>
    </>
  );
}

/** The new password, from the emailed link's token; then on to log in with it. */
export function ResetPasswordForm({
  token,
  loginLink,
}: {
  token: string | null;
  loginLink: string;
}) {
  const navigate = useNavigate();
  const { errors, message, pending, submit } = useAuthForm();

  if (!token)
    return <FormMessage tone="error" message="This page needs the link from the reset email." />;
  return (
    <>
      {message ? <FormMessage tone={message.tone} message={message.text} /> : null}
      <ScriptForm
        noValidate
        className="space-y-2"
        onSubmit={(event) =>
          submit(
            event,
            resetSchema,
            (values) => resetPassword({ token, newPassword: values.password }),
            async () => {
              await navigate(`${loginLink}&reset=1`, { replace: true });
            },
          )
        }
      >
        <PasswordField label="New password" autoComplete="new-password" errors={errors.password} />
        <PasswordField
          label="Repeat the new password"
          name="confirm"
          autoComplete="new-password"
          errors={errors.confirm}
        />
        <SubmitButton pending={pending} label="Save new password" pendingLabel="Saving…" />
      </ScriptForm>
    </>
  );
}
