import { Form } from "react-router";
import { EmailField, FormMessage, PasswordField, SubmitButton } from "~/components/forms";
import { forgotSchema, resetSchema } from "~/lib/auth-forms";
import { useAuthAction } from "./use-auth-action";

/** "Forgot password": the address to send a reset link to (the answer never says if it exists). */
export function ForgotPasswordForm() {
  const { result, errors, pending, check } = useAuthAction("forgot");
  if (result?.ok && result.sentTo)
    return (
      <FormMessage
        tone="success"
        message={`If an account exists for ${result.sentTo}, a reset link is on its way. It works for 1 hour.`}
      />
    );
  return (
    <>
      {result && !result.ok && !result.errors ? (
        <FormMessage tone="error" message={result.message} />
      ) : null}
      <Form method="post" noValidate className="space-y-2" onSubmit={check(forgotSchema)}>
        <input type="hidden" name="intent" value="forgot" />
        <EmailField errors={errors.email} defaultValue={result?.values?.email} />
        <SubmitButton pending={pending} label="Email me a reset link" pendingLabel="Sending…" />
      </Form>
    </>
  );
}

/** The new password, from the emailed link's token; then on to log in with it. */
export function ResetPasswordForm({ token }: { token: string | null }) {
  const { result, errors, pending, check } = useAuthAction("reset");
  if (!token)
    return <FormMessage tone="error" message="This page needs the link from the reset email." />;
  return (
    <>
      {result && !result.ok && !result.errors ? (
        <FormMessage tone="error" message={result.message} />
      ) : null}
      <Form method="post" noValidate className="space-y-2" onSubmit={check(resetSchema)}>
        <input type="hidden" name="intent" value="reset" />
        <input type="hidden" name="token" value={token} />
        <PasswordField label="New password" autoComplete="new-password" errors={errors.password} />
        <PasswordField
          label="Repeat the new password"
          name="confirm"
          autoComplete="new-password"
          errors={errors.confirm}
        />
        <SubmitButton pending={pending} label="Save new password" pendingLabel="Saving…" />
      </Form>
    </>
  );
}
