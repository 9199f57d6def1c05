import { redirect } from "react-router";
import { auth } from "~/.server/auth/auth.server";
import { PRIVATE_NO_STORE } from "~/.server/auth/guards";
import type { Route } from "./+types/sign-out";

/**
 * "Sign out" as a plain form post: the button works before the page's scripts have started
 * (decision record 0026) and without JavaScript. After hydration the button signs out through
 * Better Auth's client instead and never posts here. Signing out when already signed out is not an
 * error: the visitor ends up where they wanted to be. Cross-site posts are refused before this runs
 * (the CSRF check in server/express-app.ts).
 */
export async function action({ request }: Route.ActionArgs) {
  const response = await auth().api.signOut({ headers: request.headers, asResponse: true });
  const headers = new Headers({ "Cache-Control": PRIVATE_NO_STORE });
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return redirect("/", { status: 303, headers });
}

/** Signing out changes state, so it is never a GET (a link or an image could trigger one). */
export function loader() {
  return new Response("Sign out with a POST request.", {
    status: 405,
    headers: { Allow: "POST", "Cache-Control": PRIVATE_NO_STORE },
  });
}
