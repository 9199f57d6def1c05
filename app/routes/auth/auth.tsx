import { type FormEvent, useState } from "react";
import { Link, redirect, useNavigate, useSearchParams } from "react-router";
import type { z } from "zod";
import { googleEnabled } from "~/.server/auth/auth.server";
import { WEB_SESSION_TOKEN_INVALID } from "~/lib/auth-messages";
import { getSession } from "~/.server/auth/session";
import { Field, FormMessage, SubmitButton } from "~/components/forms";
import { site } from "~/config/site";
import {
  type FieldErrors,
  fieldErrors,
  forgotSchema,
  resetSchema,
  signInSchema,
  signUpSchema,
  codeSchema,
} from "~/lib/auth-forms";
import {
  type AuthResult,
  requestPasswordReset,
  resetPassword,
  signIn,
  signInWithGoogle,
  signUp,
  verifyBackupCode,
  verifyTotp,
} from "~/lib/auth-client";
import { useAuth } from "~/lib/auth-state";
import { pageMeta } from "~/lib/meta";
import { safeNext } from "~/lib/safe-redirect";
import type { Route } from "./+types/auth";

type View = "login" | "signup" | "forgot" | "reset";
const VIEWS: Record<View, { title: string; lead: string }> = {
  login: { title: "Log in", lead: `Welcome back to ${site.product.name}.` },
  signup: { title: "Create your account", lead: "Free forever on one device. No card needed." },
  forgot: { title: "Reset your password", lead: "We will email you a link to choose a new one." },
  reset: { title: "Choose a new password", lead: "Use at least 8 characters." },
};

function viewOf(value: string | null): View {
  return value === "signup" || value === "forgot" || value === "reset" ? value : "login";
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = safeNext(url.searchParams.get("next"));
  // Already signed in: straight on to where they were going (not from the reset link).
  if (viewOf(url.searchParams.get("view")) !== "reset" && (await getSession(request)))
    throw redirect(next);
  return { google: googleEnabled() };
}

export const meta: Route.MetaFunction = () =>
  pageMeta("Log in", `Log in to your ${site.product.name} account, or create one for free.`);

/** Reads a form, checks it with the schema and reports every field error. */
function readForm<S extends z.ZodType>(event: FormEvent<HTMLFormElement>, schema: S) {
  const values = Object.fromEntries(new FormData(event.currentTarget));
  return schema.safeParse(values);
}

export default function AuthPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const view = viewOf(params.get("view"));
  // A fresh form (no stale errors or messages) for every view.
  return <AuthForms key={view} view={view} google={loaderData.google} />;
}

function AuthForms({ view, google }: { view: View; google: boolean }) {
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<{ text: string; tone: "error" | "success" } | null>(null);
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [secondFactor, setSecondFactor] = useState<"totp" | "backup" | null>(null);

  const link = (target: View) => {
    const search = new URLSearchParams({ view: target });
    if (params.get("next")) search.set("next", next);
    return `/auth?${search.toString()}`;
  };

  async function submit<S extends z.ZodType>(
    event: FormEvent<HTMLFormElement>,
    schema: S,
    send: (values: z.infer<S>) => Promise<AuthResult>,
    onSuccess: (values: z.infer<S>, result: AuthResult & { ok: true }) => Promise<void> | void,
  ) {
    event.preventDefault();
    const parsed = readForm(event, schema);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      setMessage(null);
      return;
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const result = await send(parsed.data);
    setPending(false);
    if (!result.ok) {
      setMessage({ text: result.message, tone: "error" });
      return;
    }
    await onSuccess(parsed.data, result);
  }

  const { title } = VIEWS[view];
  const lead =
    params.get("desktop") === "1"
      ? `Log in to connect the ${site.product.name} app to your account.`
      : VIEWS[view].lead;
  const token = params.get("token");
  const linkError = params.get("error");

  return (
    <div className="mx-auto w-full max-w-md px-4 py-16">
      <h1 className="text-3xl font-bold text-white">{title}</h1>
      <p className="mt-2 text-slate-300">{lead}</p>

      <div className="mt-8 space-y-4">
        {linkError ? (
          <FormMessage
            tone="error"
            message={
              linkError === "desktop_token"
                ? WEB_SESSION_TOKEN_INVALID
                : "That link has expired or was already used. Ask for a new one below."
            }
          />
        ) : null}
        {message ? <FormMessage tone={message.tone} message={message.text} /> : null}

        {sentTo && view === "signup" ? (
          <FormMessage
            tone="success"
            message={`Almost done: we sent a confirmation link to ${sentTo}. Open it to activate your account.`}
          />
        ) : null}
        {sentTo && view === "forgot" ? (
          <FormMessage
            tone="success"
            message={`If an account exists for ${sentTo}, a reset link is on its way. It works for 1 hour.`}
          />
        ) : null}

        {view === "login" && secondFactor ? (
          <form
            noValidate
            className="space-y-2"
            onSubmit={(event) =>
              submit(
                event,
                codeSchema,
                (values) =>
                  secondFactor === "totp" ? verifyTotp(values.code) : verifyBackupCode(values.code),
                async () => {
                  await refresh();
                  await navigate(next, { replace: true });
                },
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
          </form>
        ) : null}

        {view === "login" && !secondFactor ? (
          <form
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
                  await refresh();
                  await navigate(next, { replace: true });
                },
              )
            }
          >
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              errors={errors.email}
            />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              errors={errors.password}
            />
            <div className="flex items-center justify-between pb-2 text-sm">
              <Link to={link("forgot")} className="link">
                Forgot password?
              </Link>
            </div>
            <SubmitButton pending={pending} label="Log in" pendingLabel="Logging in…" />
          </form>
        ) : null}

        {view === "signup" && !sentTo ? (
          <form
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
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              errors={errors.email}
            />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              hint="At least 8 characters."
              required
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
            <SubmitButton
              pending={pending}
              label="Create account"
              pendingLabel="Creating account…"
            />
          </form>
        ) : null}

        {view === "forgot" && !sentTo ? (
          <form
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
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              errors={errors.email}
            />
            <SubmitButton pending={pending} label="Email me a reset link" pendingLabel="Sending…" />
          </form>
        ) : null}

        {view === "reset" ? (
          token ? (
            <form
              noValidate
              className="space-y-2"
              onSubmit={(event) =>
                submit(
                  event,
                  resetSchema,
                  (values) => resetPassword({ token, newPassword: values.password }),
                  async () => {
                    await navigate(`${link("login")}&reset=1`, { replace: true });
                  },
                )
              }
            >
              <Field
                label="New password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                errors={errors.password}
              />
              <Field
                label="Repeat the new password"
                name="confirm"
                type="password"
                autoComplete="new-password"
                required
                errors={errors.confirm}
              />
              <SubmitButton pending={pending} label="Save new password" pendingLabel="Saving…" />
            </form>
          ) : (
            <FormMessage tone="error" message="This page needs the link from the reset email." />
          )
        ) : null}

        {view === "login" && params.get("reset") === "1" ? (
          <FormMessage
            tone="success"
            message="Your password was changed. Log in with the new one."
          />
        ) : null}

        {google && (view === "login" || view === "signup") ? (
          <button
            type="button"
            className="btn-secondary w-full"
            onClick={async () => {
              const result = await signInWithGoogle(next);
              if (!result.ok) setMessage({ text: result.message, tone: "error" });
            }}
          >
            Continue with Google
          </button>
        ) : null}

        <p className="pt-4 text-center text-sm text-slate-400">
          {view === "login" ? (
            <>
              New here?{" "}
              <Link to={link("signup")} className="link">
                Create an account
              </Link>
            </>
          ) : (
            <>
              Have an account?{" "}
              <Link to={link("login")} className="link">
                Log in
              </Link>
            </>
          )}
        </p>
      </div>
    </div>
  );
}
