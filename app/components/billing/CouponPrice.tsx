import type { BillingCycle } from "~/lib/plans";
import { formatInr } from "~/lib/money";

/** One plan's price with a coupon, as the loader's coupon view gives it (pricing and checkout). */
export interface CouponPlanPrice {
  ok: boolean;
  message: string;
  listPaise: number;
  pricePaise: number;
  charges: number | null;
  summary: string;
}

const PER = { monthly: "month", yearly: "year" } as const;

/** "₹559.20 for the first 3 months, then ₹699 a month" and the like, in plain words. */
export function couponPriceText(view: CouponPlanPrice, cycle: BillingCycle): string {
  const unit = PER[cycle];
  const price = formatInr(view.pricePaise);
  const list = formatInr(view.listPaise);
  if (view.charges === null)
    return `${price} a ${unit} instead of ${list}, for as long as you stay`;
  if (view.charges === 1) return `${price} for the first ${unit}, then ${list} a ${unit}`;
  return `${price} a ${unit} for the first ${view.charges} ${unit}s, then ${list} a ${unit}`;
}

/**
 * A coupon's effect on a plan: the price with it and for how long, or why it does not apply.
 * Drawn by the server with the page, so nothing moves when it appears.
 */
export function CouponPrice({
  code,
  method,
  view,
  cycle,
}: {
  code: string;
  method: string;
  view: CouponPlanPrice;
  cycle: BillingCycle;
}) {
  if (!view.ok)
    return (
      <p
        className="mt-3 rounded-lg border border-amber-500/40 bg-amber-500/10 px-3 py-2 text-sm text-amber-100"
        data-testid="coupon-price"
      >
        {view.message}
      </p>
    );
  return (
    <p
      className="mt-3 rounded-lg border border-green-500/40 bg-green-500/10 px-3 py-2 text-sm text-green-100"
      data-testid="coupon-price"
    >
      <span className="font-semibold">{`Coupon ${code}: ${view.summary}.`}</span>{" "}
      {`${couponPriceText(view, cycle)}, GST included.`}
      {method ? ` ${method}` : ""}
    </p>
  );
}
