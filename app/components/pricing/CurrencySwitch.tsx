import { Link } from "react-router";
import type { BillingCycle } from "~/config/site";
import { type Currency, currencyName, currencySymbol } from "~/lib/money";

/**
 * The pricing page's currency choice (issue 56): links through /pricing/currency, which
 * remembers it; nothing at all while rupees are the only currency sold.
 */
export function CurrencySwitch({
  shown,
  offered,
  cycle,
}: {
  shown: Currency;
  offered: readonly Currency[];
  cycle: BillingCycle;
}) {
  if (offered.length < 2) return null;
  return (
    <nav aria-label="Currency" className="mt-6 flex flex-wrap items-center justify-center gap-2">
      <span className="text-sm text-slate-400">Prices in</span>
      {offered.map((currency) => (
        <Link
          key={currency}
          to={`/pricing/currency?to=${currency}&billing=${cycle}`}
          // A resource route that sets the cookie and redirects: a document request, not a
          // client-side navigation (which would ask it for route data it does not have).
          reloadDocument
          aria-current={currency === shown ? "page" : undefined}
          className={`rounded-md border px-3 py-1 text-sm ${
            currency === shown
              ? "border-green-500 bg-green-500/15 text-green-200"
              : "border-slate-700 text-slate-300 hover:text-white"
          }`}
        >
          <span aria-hidden="true">{currencySymbol(currency)} </span>
          {currency === "INR" ? "Indian rupees" : currencyName(currency)}
        </Link>
      ))}
    </nav>
  );
}
