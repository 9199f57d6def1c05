import { useState } from "react";
import { Link, useNavigate } from "react-router";
import {
  EmailField,
  Field,
  FormMessage,
  PasswordField,
  ScriptForm,
  SubmitButton,
} from "~/components/forms";
import { codeSchema, signInSchema } from "~/lib/auth-forms";
import { signIn, verifyBackupCode, verifyTotp } from "~/lib/auth-client";
import { useAuth } from "~/lib/auth-state";
import { useAuthForm } from "./useAuthForm";

/** Email and password, then the second factor (authenticator code or backup code) when it is on. */
export function LoginForm({ next, forgotLink }: { next: string; forgotLink: string }) {
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const { errors, message, pending, submit } = useAuthForm();
  const [secondFactor, setSecondFactor] = useState<"totp" | "backup" | null>(null);

  const done = async () => {
    await refresh();
    await navigate(next, { replace: true });
  };

  return (
    <>
      {message ? <FormMessage tone={message.tone} message={message.text} /> : null}
      {secondFactor ? (
        <ScriptForm
          noValidate
          className="space-y-2"
          onSubmit={(event) =>
            submit(
              event,
              codeSchema,
              (values) =>
                secondFactor === "totp" ? verifyTotp(values.code) : verifyBackupCode(values.code),
              done,
            )
          }
        >
          <p className="text-slate-300">
            {secondFactor === "totp"
              ? "Two-factor authentication is on. Enter the 6-digit code from your authenticator app."
              : "Enter one of the backup codes you saved when you turned on two-factor authentication."}
          </p>
          <Field
            key={secondFactor}
            label={secondFactor === "totp" ? "Authentication code" : "Backup code"}
            name="code"
            inputMode={secondFactor === "totp" ? "numeric" : "text"}
            autoComplete="one-time-code"
            autoFocus
            required
            errors={errors.code}
          />
          <SubmitButton pending={pending} label="Verify" pendingLabel="Checking…" />
          <button
            type="button"
            className="link text-sm"
            onClick={() => setSecondFactor(secondFactor === "totp" ? "backup" : "totp")}
          >
            {secondFactor === "totp"
              ? "Use a backup code instead"
              : "Use the authenticator app instead"}
          </button>
        </ScriptForm>
      ) : (
        <ScriptForm
          noValidate
          className="space-y-2"
          onSubmit={(event) =>
            submit(
              event,
              signInSchema,
              (values) => signIn({ ...values, callbackURL: next }),
              async (_values, result) => {
                if (result.twoFactorRequired) {
                  setSecondFactor("totp");
                  return;
                }
                await done();
              },
            )
          }
        >
          <EmailField errors={errors.email} />
          <PasswordField errors={errors.password} />
          <div className="flex items-center justify-between pb-2 text-sm">
            <Link to={forgotLink} className="link">
              Forgot password?
            </Link>
          </div>
          <SubmitButton pending={pending} label="Log in" pendingLabel="Logging in…" />
        </ScriptForm>
      )}
    </>
  );
}
