import { useEffect } from "react";
import { Form, Link } from "react-router";
import { EmailField, Field, FormMessage, PasswordField, SubmitButton } from "~/components/forms";
import { track } from "~/lib/analytics/client";
import { signUpSchema } from "~/lib/auth-forms";
import { useAuthAction } from "./use-auth-action";

/** Name, email and password; then "check your inbox" (the account is active once confirmed). */
export function SignUpForm() {
  const { result, errors, pending, check } = useAuthAction("sign-up");
  const created = Boolean(result?.ok && result.sentTo);

  // The funnel's "signed up on the way" (sent only with consent, like every event).
  useEffect(() => {
    if (created) track("form_submit", { form_name: "sign_up", success: true });
  }, [created]);

  if (created && result?.sentTo)
    return (
      <FormMessage
        tone="success"
        message={`Almost done: we sent a confirmation link to ${result.sentTo}. Open it to activate your account.`}
      />
    );
  return (
    <>
      {result && !result.ok && !result.errors ? (
        <FormMessage tone="error" message={result.message} />
      ) : null}
      <Form method="post" noValidate className="space-y-2" onSubmit={check(signUpSchema)}>
        <input type="hidden" name="intent" value="sign-up" />
        <Field
          label="Name"
          name="name"
          autoComplete="name"
          required
          errors={errors.name}
          defaultValue={result?.values?.name}
        />
        <EmailField errors={errors.email} defaultValue={result?.values?.email} />
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
      </Form>
    </>
  );
}
