import { Link, useLocation } from "react-router";
import { useConsent } from "~/lib/analytics/provider";

export const CONSENT_BANNER_ID = "consent-banner";

/**
 * Asks once; "Accept" and "Decline" are equally easy. Always in the server's HTML, at the top of
 * the page and in its flow: it is there from the first paint and covers nothing, so nothing
 * appears under a visitor's finger later. A choice already made hides it before the first paint
 * (CONSENT_HEAD_SCRIPT); after hydration it is simply not rendered. The buttons post a plain form
 * (routes/consent.ts) until the scripts run, and without JavaScript.
 */
export function ConsentBanner() {
  const { choice, ready, grant, deny } = useConsent();
  const location = useLocation();
  if (ready && choice !== null) return null;
  return (
    <section
      id={CONSENT_BANNER_ID}
      aria-label="Cookie consent"
      className="border-b border-slate-700 bg-slate-900 px-4 py-3"
    >
      <form
        method="post"
        action="/consent"
        className="mx-auto flex max-w-6xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
        onSubmit={(event) => {
          // Hydrated: the choice is written here, without leaving the page.
          event.preventDefault();
          const submitter = (event.nativeEvent as SubmitEvent).submitter;
          if (submitter instanceof HTMLButtonElement && submitter.value === "granted") grant();
          else deny();
        }}
      >
        <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
        <p className="min-w-0 text-sm text-slate-200">
          We would like to count page views, downloads and errors to improve the site; our own
          analytics stores an id in your browser, only if you accept.{" "}
          <Link to="/legal/cookies" className="link">
            Cookie policy
          </Link>
        </p>
        <div className="flex shrink-0 gap-2">
          <button type="submit" name="choice" value="denied" className="btn-secondary">
            Decline
          </button>
          <button type="submit" name="choice" value="granted" className="btn-primary">
            Accept analytics
          </button>
        </div>
      </form>
    </section>
  );
}
