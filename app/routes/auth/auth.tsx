import { useState } from "react";
import { data, Link, redirect, redirectDocument, useSearchParams } from "react-router";
import { z } from "zod";
import { googleEnabled } from "~/.server/auth/auth.server";
import { cookieHeaders, postToAuth } from "~/.server/auth/form-auth.server";
import { getSession } from "~/.server/auth/session";
import { requestContext } from "~/.server/request-context";
import { LoginForm } from "~/components/auth/LoginForm";
import { ForgotPasswordForm, ResetPasswordForm } from "~/components/auth/PasswordResetForms";
import { SignUpForm } from "~/components/auth/SignUpForm";
import { FormMessage } from "~/components/forms";
import { site } from "~/config/site";
import { signInWithGoogle } from "~/lib/auth-client";
import {
  type AuthFormResult,
  codeSchema,
  fieldErrors,
  forgotSchema,
  resetSchema,
  signInSchema,
  signUpSchema,
} from "~/lib/auth-forms";
import { WEB_SESSION_TOKEN_INVALID } from "~/lib/auth-messages";
import { pageMeta } from "~/lib/meta";
import { planLabel, planOfNext, planPriceLabel } from "~/lib/plans";
import { safeNext } from "~/lib/safe-redirect";
import type { Route } from "./+types/auth";

type View = "login" | "signup" | "forgot" | "reset";
const VIEWS: Record<View, { title: string; tab: string; lead: string }> = {
  login: { title: "Log in", tab: "Log in", lead: `Welcome back to ${site.product.name}.` },
  signup: {
    title: "Create your account",
    tab: "Sign up",
    lead: "Free forever on one device. No card needed.",
  },
  forgot: {
    title: "Reset your password",
    tab: "Reset password",
    lead: "We will email you a link to choose a new one.",
  },
  reset: {
    title: "Choose a new password",
    tab: "New password",
    lead: "Use at least 8 characters.",
  },
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

const kind = z.enum(["totp", "backup"]);
/** Better Auth's codes for a pending sign-in that no longer exists: expired, or voided. */
const PENDING_SIGN_IN_GONE: ReadonlySet<string> = new Set([
  "INVALID_TWO_FACTOR_COOKIE",
  "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE",
]);
const actionSchema = z.discriminatedUnion("intent", [
  signInSchema.extend({ intent: z.literal("sign-in") }),
  codeSchema.extend({ intent: z.literal("verify-code"), kind }),
  z.object({ intent: z.literal("code-kind"), kind }),
  signUpSchema.extend({ intent: z.literal("sign-up") }),
  forgotSchema.extend({ intent: z.literal("forgot") }),
  resetSchema,
]);

function answer(result: AuthFormResult, status = 200, cookies: readonly string[] = []) {
  return data(result, { status, headers: cookieHeaders(cookies) });
}

/** The typed name and email, given back with a failure (never the password). */
function typed(values: Record<string, string>): AuthFormResult["values"] {
  return {
    ...(values.name !== undefined ? { name: values.name.slice(0, 100) } : {}),
    ...(values.email !== undefined ? { email: values.email.slice(0, 320) } : {}),
  };
}

/**
 * Every form of this page posts here, with or without JavaScript (issue 21): each calls Better
 * Auth's HTTP endpoint in-process (form-auth.server.ts) and passes its cookies on. A signed-in
 * browser gets a full page load of where it was going, so everything on it knows who is in.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const next = safeNext(url.searchParams.get("next"));
  const values = Object.fromEntries(
    [...(await request.formData())].filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
  const intent = values.intent ?? "form";
  const parsed = actionSchema.safeParse(values);
  if (!parsed.success) {
    const step = kind.safeParse(values.kind);
    return answer(
      {
        intent,
        ok: false,
        message: "Check the highlighted fields.",
        errors: fieldErrors(parsed.error),
        values: typed(values),
        ...(step.success && intent !== "sign-in" ? { step: step.data } : {}),
      },
      400,
    );
  }
  const input = parsed.data;
  const clientIp = context.get(requestContext).clientIp;
  const post = (path: string, body: Record<string, unknown>) =>
    postToAuth(request, clientIp, path, body);
  const signedIn = (cookies: readonly string[]) =>
    redirectDocument(next, { status: 303, headers: cookieHeaders(cookies) });
  // Better Auth said no: its message, and what was typed (never the password) to fill in again.
  const refused = (result: { status: number; message: string }) =>
    answer({ intent, ok: false, message: result.message, values: typed(values) }, result.status);

  switch (input.intent) {
    case "sign-in": {
      const result = await post("/sign-in/email", {
        email: input.email,
        password: input.password,
        callbackURL: next,
      });
      if (!result.ok) return refused(result);
      if (result.data.twoFactorRedirect)
        return answer({ intent, ok: true, message: "", step: "totp" }, 200, result.cookies);
      return signedIn(result.cookies);
    }
    case "code-kind":
      return answer({ intent, ok: true, message: "", step: input.kind });
    case "verify-code": {
      const path =
        input.kind === "totp" ? "/two-factor/verify-totp" : "/two-factor/verify-backup-code";
      const result = await post(path, { code: input.code });
      // The pending sign-in is gone (too slow, or voided by wrong codes): back to the password.
      if (!result.ok && PENDING_SIGN_IN_GONE.has(result.code ?? ""))
        return answer(
          { intent, ok: false, message: result.message },
          result.status,
          result.cookies,
        );
      if (!result.ok)
        return answer(
          { intent, ok: false, message: result.message, step: input.kind },
          result.status,
          result.cookies,
        );
      return signedIn(result.cookies);
    }
    case "sign-up": {
      const result = await post("/sign-up/email", {
        name: input.name,
        email: input.email,
        password: input.password,
        callbackURL: next,
      });
      if (!result.ok) return refused(result);
      return answer({ intent, ok: true, message: "", sentTo: input.email });
    }
    case "forgot": {
      const result = await post("/request-password-reset", {
        email: input.email,
        redirectTo: "/auth?view=reset",
      });
      if (!result.ok) return refused(result);
      return answer({ intent, ok: true, message: "", sentTo: input.email });
    }
    case "reset": {
      const result = await post("/reset-password", {
        token: input.token,
        newPassword: input.password,
      });
      if (!result.ok) return answer({ intent, ok: false, message: result.message }, result.status);
      const login = new URLSearchParams({ view: "login", reset: "1" });
      if (url.searchParams.get("next")) login.set("next", next);
      throw redirect(`/auth?${login.toString()}`, { status: 303 });
    }
  }
}

/** Each view names itself in the tab: "Sign up", "Reset password", … */
export const meta: Route.MetaFunction = ({ location }) =>
  pageMeta(
    VIEWS[viewOf(new URLSearchParams(location.search).get("view"))].tab,
    `Log in to your ${site.product.name} account, or create one for free.`,
  );

/** One view of sign-in at a time (?view=login|signup|forgot|reset); each form is its own module. */
export default function AuthPage({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const view = viewOf(params.get("view"));
  // A fresh form (no stale errors or messages) for every view.
  return <AuthView key={view} view={view} google={loaderData.google} />;
}

function AuthView({ view, google }: { view: View; google: boolean }) {
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const [googleError, setGoogleError] = useState<string | null>(null);

  const link = (target: View) => {
    const search = new URLSearchParams({ view: target });
    if (params.get("next")) search.set("next", next);
    return `/auth?${search.toString()}`;
  };

  // Chosen on the pricing page: the plan travels through sign-up, the emailed link and sign-in.
  const plan = planOfNext(next);
  const buying = plan
    ? `${planLabel(plan)}, ${planPriceLabel(plan)}${site.pricing.pricesIncludeGst ? " incl. GST" : " + GST"}`
    : null;
  const lead =
    params.get("desktop") === "1"
      ? `Log in to connect the ${site.product.name} app to your account.`
      : buying && view === "signup"
        ? `You are signing up for ${buying}. Create your account, confirm your email, then pay.`
        : buying && view === "login"
          ? `Log in to continue to checkout for ${buying}.`
          : VIEWS[view].lead;
  const linkError = params.get("error");

  return (
    <div className="mx-auto w-full max-w-md px-4 py-16">
      <h1 className="text-3xl font-bold text-white">{VIEWS[view].title}</h1>
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
        {googleError ? <FormMessage tone="error" message={googleError} /> : null}

        {view === "login" ? <LoginForm forgotLink={link("forgot")} /> : null}
        {view === "signup" ? <SignUpForm /> : null}
        {view === "forgot" ? <ForgotPasswordForm /> : null}
        {view === "reset" ? <ResetPasswordForm token={params.get("token")} /> : null}

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
              if (!result.ok) setGoogleError(result.message);
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
