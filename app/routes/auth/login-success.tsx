import { useEffect, useState } from "react";
import { Link } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { handoffDestination } from "~/.server/desktop/handoff.server";
import { site } from "~/config/site";
import { desktopCallbackUrl } from "~/lib/desktop-redirect";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/login-success";

/** Titled for what the page says: a spent or unknown link is not a sign-in. */
export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData?.callbackUrl
    ? pageMeta("Signed in", `Return to the ${site.product.name} desktop app to finish signing in.`)
    : pageMeta(
        "Sign-in link expired",
        `Sign-in links for the ${site.product.name} app work once, for 5 minutes.`,
      );

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const destination = token ? await handoffDestination(token, user.id) : null;
  if (!destination) return { callbackUrl: null, token: null };
  return {
    callbackUrl: desktopCallbackUrl(destination.redirectUri, token, destination.state),
    token,
  };
}

export default function LoginSuccessPage({ loaderData }: Route.ComponentProps) {
  const { callbackUrl, token } = loaderData;
  const [copied, setCopied] = useState(false);
  const name = site.product.name;

  useEffect(() => {
    // Hands the token to the app's loopback listener or URL scheme.
    if (callbackUrl) window.location.assign(callbackUrl);
  }, [callbackUrl]);

  if (!callbackUrl || !token) {
    return (
      <div className="prose-page">
        <h1 className="text-3xl font-bold text-white">This sign-in link has expired</h1>
        <p className="mt-4 text-slate-300">
          Sign-in links for the app work once, for 5 minutes. Go back to {name} and choose “Sign in”
          again.
        </p>
        <Link to="/account" className="btn-secondary mt-6">
          Go to your account
        </Link>
      </div>
    );
  }

  return (
    <div className="prose-page">
      <h1 className="text-3xl font-bold text-white">You are signed in</h1>
      <p className="mt-4 text-slate-300">
        Your browser is handing you back to {name}. If the app did not open:
      </p>
      <a href={callbackUrl} className="btn-primary mt-6">
        Open {name}
      </a>
      <section
        aria-labelledby="code-heading"
        className="mt-10 rounded-xl border border-slate-800 bg-slate-900 p-5"
      >
        <h2 id="code-heading" className="text-lg font-semibold text-white">
          Or paste this code into the app
        </h2>
        <p className="mt-2 break-all font-mono text-sm text-green-300" data-testid="handoff-code">
          {token}
        </p>
        <button
          type="button"
          className="btn-secondary mt-4"
          onClick={async () => {
            await navigator.clipboard.writeText(token);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy code"}
        </button>
        <p className="mt-4 text-sm text-slate-400">
          The code works once, for 5 minutes. If {name} still does not respond, make sure it is
          running, then sign in again from the app.
        </p>
      </section>
    </div>
  );
}
