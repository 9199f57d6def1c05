/**
 * What /pricing shows besides the configured plans, read once for its loader (the route stays
 * thin): the free trial's length (TRIAL_DAYS; 0: none offered), the same for every visitor; with
 * `?coupon=CODE`, the coupon's prices or why it does not apply (its own rules only: whether this
 * person may use it is checked at checkout), the same for every visitor of that address. Nothing
 * about the visitor: the page is cached and shared.
 */
import { couponView } from "../coupons/pricing-view.server";
import { env } from "../env";

export async function pricingPage(requestUrl: string) {
  const code = new URL(requestUrl).searchParams.get("coupon")?.slice(0, 64).trim() ?? "";
  return {
    trialDays: env().TRIAL_DAYS,
    coupon: code ? await couponView(code, null) : null,
  };
}
