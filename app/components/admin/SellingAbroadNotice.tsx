/**
 * The dashboard's line about selling abroad (issue 56): what is sold and under which Letter of
 * Undertaking, or why no foreign currency is offered (an LUT missing or of another year is a
 * warning: buyers abroad see rupees only until it is fixed).
 */
import { Link } from "react-router";
import type { SellingAbroadStatus } from "~/.server/billing/selling-abroad.server";

export function SellingAbroadNotice({
  status,
}: {
  status: SellingAbroadStatus & { waitingForRate: number };
}) {
  const waiting = status.waitingForRate;
  const warn = (!status.open && status.warn) || waiting > 0;
  return (
    <p
      role={warn ? "alert" : undefined}
      data-testid="selling-abroad"
      className={`mb-6 rounded-lg border px-4 py-3 text-sm ${
        warn
          ? "border-amber-500/40 bg-amber-500/10 text-amber-100"
          : "border-slate-800 bg-slate-900 text-slate-300"
      }`}
    >
      {status.open
        ? `Selling abroad in ${status.currencies.join(" and ")}, as exports under LUT ${status.arn} (${status.financialYear}).`
        : status.words}
      {waiting > 0 ? (
        <>
          {` ${waiting === 1 ? "1 export invoice waits" : `${waiting} export invoices wait`} for an RBI reference rate: `}
          <Link to="/admin/exchange-rates" className="font-medium text-white underline">
            Exchange rates
          </Link>
        </>
      ) : null}
    </p>
  );
}
