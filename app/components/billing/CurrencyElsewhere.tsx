import { Link } from "react-router";
import type { PaidPlanId } from "~/lib/plans";
import { type Currency, currencyName } from "~/lib/money";

/**
 * Checkout by country (issue 56): the form is for one side of the border, and this is the way to
 * the other when the buyer is on it (in India: rupees with GST; abroad: their currency, no GST).
 */
export function CurrencyElsewhere({
  plan,
  others,
}: {
  plan: PaidPlanId;
  others: readonly Currency[];
}) {
  if (others.length === 0) return null;
  return (
    <p className="mt-2 text-sm text-slate-300" data-testid="currency-elsewhere">
      {others.map((currency, index) => (
        <span key={currency}>
          {index > 0 ? " · " : null}
          <Link className="link" to={`/checkout?plan=${plan}&currency=${currency}`}>
            {currency === "INR"
              ? "Billing address in India? Pay in rupees, GST included"
              : `Billing address outside India? Pay in ${currencyName(currency)}`}
          </Link>
        </span>
      ))}
    </p>
  );
}

/** Why the currency asked for is not sold (no Letter of Undertaking for this year, say). */
export function CurrencyRefused({ words }: { words: string | null }) {
  if (!words) return null;
  return (
    <p
      role="status"
      className="mb-6 rounded-lg border border-amber-400/40 bg-amber-500/10 p-4 text-amber-100"
      data-testid="currency-refused"
    >
      {words}
    </p>
  );
}
