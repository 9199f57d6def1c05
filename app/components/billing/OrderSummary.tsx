/** /checkout's order: the plan, its price and GST split, a coupon, and what is charged when. */
import { Link } from "react-router";
import type { CheckoutPage } from "~/.server/billing/checkout-page.server";
import { CouponField } from "~/components/billing/CouponField";
import { CouponPrice, couponPriceText } from "~/components/billing/CouponPrice";
import { PAYMENT_METHODS_ABROAD_TEXT, PAYMENT_METHODS_TEXT } from "~/config/pricing";
import { site } from "~/config/site";
import { type GstSplit, gstSplitText } from "~/lib/gst-split";
import { formatPrice, type Money } from "~/lib/money";

export function OrderSummary({
  plan,
  coupon,
  switching,
  applied,
  first,
  gst,
  afterTrial,
  trialEnd,
}: Pick<CheckoutPage, "plan" | "coupon" | "switching"> & {
  /** The coupon when it applies to this plan for this buyer. */
  applied: CheckoutPage["coupon"];
  /** The first charge: the coupon's price when one applies; in the buyer's currency. */
  first: Money;
  /** The first charge's GST split, once the buyer's state is known. */
  gst: GstSplit | null;
  /** The plan starts when the buyer's trial ends, on `trialEnd` (formatted). */
  afterTrial: boolean;
  trialEnd: string;
}) {
  const per = plan.cycle === "yearly" ? "year" : "month";
  // Outside India (issue 56): an export, zero-rated, paid by card.
  const abroad = plan.list.currency !== "INR";
  return (
    <section
      aria-labelledby="order"
      className="mb-8 rounded-xl border border-slate-800 bg-slate-900 p-6"
    >
      <h2 id="order" className="text-lg font-semibold text-white">
        Order
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-300">Plan</dt>
          <dd className="font-medium text-white">{plan.label}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-300">Price</dt>
          <dd className="font-medium text-white" data-testid="checkout-price">
            {plan.price}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-300">GST</dt>
          <dd className="font-medium text-white">
            {abroad ? "None (export)" : `${site.pricing.gstRatePercent}% included`}
          </dd>
        </div>
      </dl>
      {coupon ? (
        <CouponPrice
          code={coupon.code}
          method={coupon.method}
          view={coupon.view}
          cycle={plan.cycle ?? "monthly"}
        />
      ) : null}
      <p className="mt-3 text-sm text-slate-300" data-testid="checkout-gst" aria-live="polite">
        {abroad
          ? `No Indian GST for buyers outside India: your invoice is an export invoice in ${plan.list.currency}, with its value in rupees. Any tax of your own country is not collected here.`
          : gst
            ? `${formatPrice(first)} is ${gstSplitText(gst)}, as your tax invoice will show it${applied ? " (the discount comes off before GST)" : ""}.`
            : "Choose your state below to see the GST split your tax invoice will show."}
      </p>
      <p className="mt-2 text-sm text-slate-300" data-testid="checkout-methods">
        {abroad ? PAYMENT_METHODS_ABROAD_TEXT : PAYMENT_METHODS_TEXT}
      </p>
      <p className="mt-3 text-sm text-slate-300" data-testid="checkout-terms" aria-live="polite">
        {afterTrial
          ? `Nothing is charged today. The first charge, ${formatPrice(first)}, is on ${trialEnd}, when your trial ends; then every ${per} until you cancel${applied ? ` (${couponPriceText(applied.view, plan.cycle ?? "monthly")})` : ""}. Cancel before ${trialEnd} from Account → Subscription and nothing is charged at all.`
          : applied
            ? `${couponPriceText(applied.view, plan.cycle ?? "monthly")}, until you cancel. Cancel any time from Account → Subscription.`
            : `Renews every ${per} at ${formatPrice(plan.list)} until you cancel. Cancel any time from Account → Subscription.`}
      </p>
      {!switching ? (
        <p className="mt-2 text-sm">
          <Link
            className="link"
            to={`/checkout?plan=${plan.id === "pro-monthly" ? "pro-yearly" : "pro-monthly"}${coupon ? `&coupon=${encodeURIComponent(coupon.code)}` : ""}${abroad ? `&currency=${plan.list.currency}` : ""}`}
          >
            {plan.id === "pro-monthly" ? "Pay yearly instead" : "Pay monthly instead"}
          </Link>
        </p>
      ) : null}
      {!switching && !abroad ? <CouponField planId={plan.id} code={coupon?.code ?? null} /> : null}
    </section>
  );
}
