import { Link } from "react-router";
import { useConsent } from "~/lib/analytics/provider";

/** Asks once; "Accept" and "Decline" are equally easy. Shown only in the browser, never to bots' HTML. */
export function ConsentBanner() {
  const { choice, ready, grant, deny } = useConsent();
  if (!ready || choice !== null) return null;
  return (
    <section
      aria-label="Cookie consent"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-700 bg-slate-900/95 px-4 py-4 backdrop-blur"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        {/* Two short paragraphs, not one long one: on a phone the banner arrives after the page
            and must not become its largest paint (Lighthouse's LCP) where the page's own text is
            short, as on /download. */}
        <div className="text-sm text-slate-200">
          <p>We would like to count page views, downloads and errors to improve the site.</p>
          <p>
            Our own analytics stores an id in your browser, only if you accept.{" "}
            <Link to="/legal/cookies" className="link">
              Cookie policy
            </Link>
          </p>
        </div>
        <div className="flex shrink-0 gap-2">
          <button type="button" className="btn-secondary" onClick={deny}>
            Decline
          </button>
          <button type="button" className="btn-primary" onClick={grant}>
            Accept analytics
          </button>
        </div>
      </div>
    </section>
  );
}
