import { useConsent } from "~/lib/analytics/provider";

/** On the cookie policy page: the current choice, changeable in one click either way. */
export function CookieSettings() {
  const { choice, ready, grant, deny } = useConsent();
  const status = !ready
    ? "Checking your choice…"
    : choice === "granted"
      ? "Analytics is on: page views, downloads and errors are counted."
      : choice === "denied"
        ? "Analytics is off: nothing is counted."
        : "You have not chosen yet: analytics is off.";
  return (
    <section
      aria-labelledby="cookie-settings-heading"
      className="my-8 rounded-xl border border-slate-700 bg-slate-900 p-5"
    >
      <h2 id="cookie-settings-heading" className="text-lg font-semibold text-white">
        Cookie settings
      </h2>
      <p role="status" className="mt-2 text-slate-300">
        {status}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-primary"
          onClick={grant}
          disabled={!ready || choice === "granted"}
        >
          Allow analytics
        </button>
        <button
          type="button"
          className="btn-secondary"
          onClick={deny}
          disabled={!ready || choice === "denied"}
        >
          Withdraw consent
        </button>
      </div>
    </section>
  );
}
