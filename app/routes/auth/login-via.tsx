import { data, Form, redirect } from "react-router";
import { auth } from "~/.server/auth/auth.server";
import { PRIVATE_NO_STORE } from "~/.server/auth/guards";
import { getSession } from "~/.server/auth/session";
import {
  continueWithTokenSchema,
  type DesktopLoginRequest,
  desktopLoginSchema,
  issueHandoffToken,
  peekWebSessionToken,
} from "~/.server/desktop/handoff.server";
import { logger } from "~/.server/logger";
import { appReturnCookie } from "~/.server/desktop/app-return.server";
import { isAllowedDesktopRedirect } from "~/lib/desktop-redirect";
import { site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import { safeNext } from "~/lib/safe-redirect";
import type { Route } from "./+types/login-via";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Signing you in", `Connect the ${site.product.name} desktop app to your account.`),
  { name: "referrer", content: "same-origin" },
];

/**
 * The URL carries a single-use token: never stored by a cache, never sent to another site as a
 * Referer. `same-origin`, not `no-referrer`: with no-referrer the browser sends `Origin: null` on
 * the "Continue" POST, which the cross-site check rightly refuses.
 */
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": PRIVATE_NO_STORE,
  "Referrer-Policy": "same-origin",
});

function successUrl(token: string) {
  return `/login-success?token=${encodeURIComponent(token)}`;
}

function webTokenRefused(next: string) {
  return redirect(`/auth?error=desktop_token&next=${encodeURIComponent(next)}`, {
    headers: { "Cache-Control": PRIVATE_NO_STORE },
  });
}

/**
 * Both directions of the desktop handoff, each completed only by a POST from the page:
 * - `?token=&next=` (app → web): a single-use token from the app signs this browser in, once the
 *   visitor confirms with a POST. A GET only shows whose token it is, so a link planted on another
 *   site cannot sign a browser into someone else's account (login CSRF).
 * - `?client=desktop&redirect_uri=&state=&code_challenge=&code_challenge_method=S256` (web → app):
 *   the signed-in user presses "Connect …", then gets a single-use token for the app, via
 *   /login-success.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const webToken = url.searchParams.get("token");
  if (webToken !== null) {
    const next = safeNext(url.searchParams.get("next"));
    const holder = await peekWebSessionToken(webToken);
    if (!holder) throw webTokenRefused(next);
    const session = await getSession(request);
    return {
      direction: "to-web" as const,
      token: webToken,
      next,
      email: holder.email,
      signedInAs: session?.user.email ?? null,
    };
  }

  const parsed = desktopLoginSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    // A person reads this, not a developer (issue 34): the validator's words go to the log.
    const issue = parsed.error.issues[0];
    logger().info(
      { field: issue?.path.join("."), problem: issue?.message },
      "desktop sign-in link refused",
    );
    throw data(
      {
        message:
          url.search === ""
            ? `This page finishes signing in the ${site.product.name} desktop app, so it only works from the link the app opens. Open the app and choose "Sign in".`
            : `This sign-in link from the app is incomplete or damaged, so it cannot connect the app. Open the app and choose "Sign in" again.`,
      },
      { status: 400 },
    );
  }
  const session = await getSession(request);
  if (!session)
    throw redirect(`/auth?desktop=1&next=${encodeURIComponent(url.pathname + url.search)}`);
  const { client: _client, ...handoff } = parsed.data;
  return { direction: "to-app" as const, handoff, email: session.user.email };
}

/**
 * App → web: "Continue as …" posts the token here and only now is it spent. Web → app: "Connect …"
 * posts here (with the app's query) and only now is the app's token issued.
 */
export async function action({ request }: Route.ActionArgs) {
  const url = new URL(request.url);
  if (!url.searchParams.has("client")) return continueWithWebToken(request);
  const session = await getSession(request);
  if (!session)
    throw redirect(`/auth?desktop=1&next=${encodeURIComponent(url.pathname + url.search)}`);
  const parsed = desktopLoginSchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success)
    throw data({ message: "This sign-in link from the app is not valid." }, { status: 400 });
  const token = await issueHandoffToken(session.user.id, parsed.data);
  throw redirect(successUrl(token));
}

async function continueWithWebToken(request: Request): Promise<never> {
  const form = await request.formData().catch(() => null);
  const parsed = continueWithTokenSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success)
    throw data({ message: "This sign-in link from the app is not valid." }, { status: 400 });
  const next = safeNext(parsed.data.next);
  // Read before the token is spent: where the app waits for the errand it opened to end.
  const returnUri = (await peekWebSessionToken(parsed.data.token))?.returnUri;
  const response = await auth().api.signInWithDesktopToken({
    body: { token: parsed.data.token },
    headers: request.headers,
    asResponse: true,
  });
  if (!response.ok) throw webTokenRefused(next);
  const headers = new Headers({ "Cache-Control": PRIVATE_NO_STORE });
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  if (returnUri && isAllowedDesktopRedirect(returnUri))
    headers.append(
      "Set-Cookie",
      appReturnCookie(returnUri, new URL(request.url).protocol === "https:"),
    );
  throw redirect(next, { headers });
}

export default function LoginViaPage({ loaderData }: Route.ComponentProps) {
  return loaderData.direction === "to-web" ? (
    <ContinueAsPage {...loaderData} />
  ) : (
    <ToAppPage handoff={loaderData.handoff} email={loaderData.email} />
  );
}

/** App → web: one click signs this browser in as the app's user (or keeps the current one). */
function ContinueAsPage({
  token,
  next,
  email,
  signedInAs,
}: {
  token: string;
  next: string;
  email: string;
  signedInAs: string | null;
}) {
  const someoneElse = signedInAs !== null && signedInAs !== email;
  return (
    <div className="prose-page">
      <h1 className="text-3xl font-bold text-white">{`Continue as ${email}?`}</h1>
      <p className="mt-4 text-slate-300">
        {`The ${site.product.name} app asks to open the site signed in as ${email}.`}
      </p>
      {someoneElse ? (
        <p className="mt-4 text-slate-300">{`You are signed in as ${signedInAs} in this browser.`}</p>
      ) : null}
      {/* A full page load: the new session cookie applies to everything the next page loads. */}
      <Form method="post" action="/login-via" reloadDocument className="mt-6 flex flex-wrap gap-3">
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="next" value={next} />
        {/* Flex items are as wide as their longest word: the addresses must break anywhere. */}
        <button type="submit" className="btn-primary wrap-anywhere">
          {`Continue as ${email}`}
        </button>
        {someoneElse ? (
          <a href={next} className="btn-secondary wrap-anywhere">
            {`Stay signed in as ${signedInAs}`}
          </a>
        ) : null}
      </Form>
    </div>
  );
}

type Handoff = Omit<DesktopLoginRequest, "client">;

const PLATFORM_LABELS = { mac: "Mac", windows: "Windows" } as const;

/**
 * Web → app: the token is issued only when the person presses the button (a POST), never on
 * opening the page: a link opened by someone signed in must not hand their account to whatever
 * listens on the loopback port it names. The page says which app and computer ask.
 */
function ToAppPage({ handoff, email }: { handoff: Handoff; email: string }) {
  const name = site.product.name;
  const device = handoff.device_name
    ? handoff.platform
      ? `${handoff.device_name} (${PLATFORM_LABELS[handoff.platform]})`
      : handoff.device_name
    : null;
  return (
    <div className="prose-page">
      <h1 className="text-3xl font-bold text-white">{`Connect the ${name} app?`}</h1>
      <p className="mt-4 text-slate-300">
        {device
          ? `The ${name} app on ${device} asks to sign in to your account, `
          : `A ${name} app on this computer asks to sign in to your account, `}
        <strong className="text-white">{email}</strong>.
      </p>
      <p className="mt-2 text-slate-400">
        {`Continue only if you just chose "Sign in" in the app. If you did not, close this page: nothing is shared until you press the button.`}
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        {/* A plain form post: it works the moment the page is visible, with or without scripts. */}
        <Form method="post" reloadDocument>
          {/* A flex item is as wide as its longest word: the address must break anywhere. */}
          <button type="submit" className="btn-primary wrap-anywhere">
            {`Connect the ${name} app on this computer to ${email}`}
          </button>
        </Form>
        <a href="/account" className="btn-secondary">
          Cancel
        </a>
      </div>
    </div>
  );
}
