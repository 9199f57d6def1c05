import { Form, Link } from "react-router";
import { EmailField, Field, FormMessage, PasswordField, SubmitButton } from "~/components/forms";
import { codeSchema, signInSchema } from "~/lib/auth-forms";
import { useAuthAction } from "./use-auth-action";

/**
 * Email and password, then the second factor (authenticator code or backup code) when it is on.
 * Plain form posts to the page's action: Enter works the moment the form is visible.
 */
export function LoginForm({ forgotLink }: { forgotLink: string }) {
  const { result, errors, pending, check } = useAuthAction("sign-in", "verify-code", "code-kind");
  const step = result?.step;
  const failure = result && !result.ok && result.message ? result.message : null;

  return (
    <>
      {failure && !result?.errors ? <FormMessage tone="error" message={failure} /> : null}
      {step ? (
        <>
          <Form method="post" noValidate className="space-y-2" onSubmit={check(codeSchema)}>
            <input type="hidden" name="intent" value="verify-code" />
            <input type="hidden" name="kind" value={step} />
            <p className="text-slate-300">
              {step === "totp"
                ? "Two-factor authentication is on. Enter the 6-digit code from your authenticator app."
                : "Enter one of the backup codes you saved when you turned on two-factor authentication."}
            </p>
            <Field
              key={step}
              label={step === "totp" ? "Authentication code" : "Backup code"}
              name="code"
              inputMode={step === "totp" ? "numeric" : "text"}
              autoComplete="one-time-code"
              autoFocus
              required
              errors={errors.code}
            />
            <SubmitButton pending={pending} label="Verify" pendingLabel="Checking…" />
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="code-kind" />
            <input type="hidden" name="kind" value={step === "totp" ? "backup" : "totp"} />
            <button type="submit" className="link text-sm">
              {step === "totp" ? "Use a backup code instead" : "Use the authenticator app instead"}
            </button>
          </Form>
        </>
      ) : (
        <Form method="post" noValidate className="space-y-2" onSubmit={check(signInSchema)}>
          <input type="hidden" name="intent" value="sign-in" />
          <EmailField errors={errors.email} defaultValue={result?.values?.email} />
          <PasswordField errors={errors.password} />
          <div className="flex items-center justify-between pb-2 text-sm">
            <Link to={forgotLink} className="link">
              Forgot password?
            </Link>
          </div>
          <SubmitButton pending={pending} label="Log in" pendingLabel="Logging in…" />
        </Form>
      )}
    </>
  );
}
