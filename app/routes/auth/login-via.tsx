import { useEffect, useRef, useState } from "react";
import { data, Form, redirect } from "react-router";
import { auth } from "~/.server/auth/auth.server";
import { getSession } from "~/.server/auth/session";
import { desktopLoginSchema, issueHandoffToken } from "~/.server/desktop/handoff.server";
import { FormMessage } from "~/components/forms";
import { site } from "~/config/site";
import { callFunction, extractToken } from "~/lib/functions-client";
import { pageMeta } from "~/lib/meta";
import { safeNext } from "~/lib/safe-redirect";
import type { Route } from "./+types/login-via";

export const meta: Route.MetaFunction = () =>
  pageMeta("Signing you in", `Connect the ${site.product.name} desktop app to your account.`);

function successUrl(token: string) {
  return `/login-success?token=${encodeURIComponent(token)}`;
}

/**
 * Both directions of the desktop handoff:
 * - `?token=&next=` (app → web): a single-use token from the app signs this browser in.
 * - `?client=desktop&redirect_uri=&state=&code_challenge=&code_challenge_method=S256` (web → app):
 *   the signed-in user gets a single-use token for the app, via /login-success.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const webToken = url.searchParams.get("token");
  if (webToken !== null) {
    const next = safeNext(url.searchParams.get("next"));
    const response = await auth().api.signInWithDesktopToken({
      body: { token: webToken },
      headers: request.headers,
      asResponse: true,
    });
    if (!response.ok) throw redirect(`/auth?error=desktop_token&next=${encodeURIComponent(next)}`);
    const headers = new Headers();
    for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
    throw redirect(next, { headers });
  }

  const parsed = desktopLoginSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw data(
      {
        message: `This sign-in link from the app is not valid (${issue?.path.join(".")}: ${issue?.message}). Start again from the app.`,
      },
      { status: 400 },
    );
  }
  const session = await getSession(request);
  if (!session)
    throw redirect(`/auth?desktop=1&next=${encodeURIComponent(url.pathname + url.search)}`);
  const { client: _client, ...handoff } = parsed.data;
  return { handoff, email: session.user.email };
}

/** Without JavaScript the "Continue" button posts here and the token is issued on the server. */
export async function action({ request }: Route.ActionArgs) {
  const session = await getSession(request);
  const url = new URL(request.url);
  if (!session)
    throw redirect(`/auth?desktop=1&next=${encodeURIComponent(url.pathname + url.search)}`);
  const parsed = desktopLoginSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success)
    throw data({ message: "This sign-in link from the app is not valid." }, { status: 400 });
  const token = await issueHandoffToken(session.user.id, parsed.data);
  throw redirect(successUrl(token));
}

export default function LoginViaPage({ loaderData }: Route.ComponentProps) {
  const { handoff, email } = loaderData;
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    callFunction("generateAuthRedirectToken", handoff)
      .then((response) => window.location.assign(successUrl(extractToken(response))))
      .catch((failure: unknown) =>
        setError(failure instanceof Error ? failure.message : String(failure)),
      );
  }, [handoff]);

  return (
    <div className="prose-page">
      <h1 className="text-3xl font-bold text-white">Signing in to the {site.product.name} app</h1>
      <p className="mt-4 text-slate-300">
        Connecting the app to <strong className="text-white">{email}</strong>…
      </p>
      <div className="mt-6 space-y-4">
        {error ? <FormMessage tone="error" message={error} /> : null}
        <Form method="post">
          <button type="submit" className="btn-primary">
            Continue to the app
          </button>
        </Form>
      </div>
    </div>
  );
}
