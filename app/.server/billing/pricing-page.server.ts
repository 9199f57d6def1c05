/**
 * What /pricing shows besides the configured plans, read once for its loader (the route stays
 * thin): the free trial's length (TRIAL_DAYS; 0: none offered), the same for every visitor; with
 * `?coupon=CODE`, the coupon's prices or why it does not apply (its own rules only: whether this
 * person may use it is checked at checkout), the same for every visitor of that address. Nothing
 * about the visitor: the page is cached and shared.
 *
 * The currency is the page's address (`?currency=`, pricing-currency.server): a visitor whose
 * cookie remembers another one is sent to its address instead.
 */
import { redirect } from "react-router";
import { couponView } from "../coupons/pricing-view.server";
import { env } from "../env";
import { pricingCurrency } from "./pricing-currency.server";

export async function pricingPage(request: Request) {
  const currency = pricingCurrency(request.url, request.headers.get("cookie"));
  if ("redirectTo" in currency)
    throw redirect(currency.redirectTo, { headers: { "Cache-Control": "private, no-store" } });
  const code = new URL(request.url).searchParams.get("coupon")?.slice(0, 64).trim() ?? "";
  return {
    trialDays: env().TRIAL_DAYS,
    currency: currency.shown,
    offered: currency.offered,
    // Coupons are rupee discounts (decision 0061): a page in another currency shows none.
    coupon: code && currency.shown === "INR" ? await couponView(code, null) : null,
    couponInRupeesOnly: code !== "" && currency.shown !== "INR",
  };
}
