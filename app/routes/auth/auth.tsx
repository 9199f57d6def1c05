import { useState } from "react";
import { Link, redirect, useSearchParams } from "react-router";
import { googleEnabled } from "~/.server/auth/auth.server";
import { getSession } from "~/.server/auth/session";
import { LoginForm } from "~/components/auth/LoginForm";
import { ForgotPasswordForm, ResetPasswordForm } from "~/components/auth/PasswordResetForms";
import { SignUpForm } from "~/components/auth/SignUpForm";
import { FormMessage } from "~/components/forms";
import { site } from "~/config/site";
import { signInWithGoogle } from "~/lib/auth-client";
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

        {view === "login" ? <LoginForm next={next} forgotLink={link("forgot")} /> : null}
        {view === "signup" ? <SignUpForm next={next} /> : null}
        {view === "forgot" ? <ForgotPasswordForm /> : null}
        {view === "reset" ? (
          <ResetPasswordForm token={params.get("token")} loginLink={link("login")} />
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
