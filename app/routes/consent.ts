import { redirect } from "react-router";
import { PRIVATE_NO_STORE } from "~/.server/auth/guards";
import { consentCookie } from "~/lib/analytics/consent";
import { expiredAnalyticsIdCookie } from "~/lib/analytics/visitor-cookie";
import { safeNext } from "~/lib/safe-redirect";
import type { Route } from "./+types/consent";

/**
 * The cookie banner's Accept and Decline as a plain form post: the choice works before the page's
 * scripts have started and without JavaScript (a 303 back to the page, now without the banner).
 * After hydration the banner writes the cookie in the browser and never posts here. Cross-site
 * posts are refused before this runs (the CSRF check in server/express-app.ts).
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const choice = form.get("choice");
  const back = safeNext(String(form.get("returnTo") ?? "/"), "/");
  if (choice !== "granted" && choice !== "denied")
    return new Response("Choose granted or denied.", {
      status: 400,
      headers: { "Cache-Control": PRIVATE_NO_STORE },
    });
  const secure = new URL(request.url).protocol === "https:";
  const headers = new Headers({ "Cache-Control": PRIVATE_NO_STORE });
  headers.append("Set-Cookie", consentCookie(choice, secure));
  // Declining forgets the analytics id this browser was given, as the banner's script does.
  if (choice === "denied") headers.append("Set-Cookie", expiredAnalyticsIdCookie(secure));
  return redirect(back, { status: 303, headers });
}

/** A choice changes state, so it is never a GET. */
export function loader() {
  return new Response("Post your choice from the cookie banner.", {
    status: 405,
    headers: { Allow: "POST", "Cache-Control": PRIVATE_NO_STORE },
  });
}
