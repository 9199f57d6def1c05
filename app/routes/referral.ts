import { redirect } from "react-router";
import { referrerOf } from "~/.server/referrals/codes.server";
import { referralCookie, referralsOn } from "~/.server/referrals/record.server";
import { env } from "~/.server/env";
import { couponByCode } from "~/.server/coupons/quote.server";
import type { Route } from "./+types/referral";

/**
 * `/r/CODE`, a customer's referral link: remembers the code for 30 days (an account created
 * meanwhile is recorded as referred) and shows pricing with the referral coupon. A code that is
 * nobody's, or links turned off, is just pricing: nothing is remembered.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const code = params.code.trim().toUpperCase();
  const referrer = referralsOn() ? await referrerOf(code) : null;
  if (!referrer) return redirect("/pricing", { headers: { "Cache-Control": "no-store" } });
  const target = new URLSearchParams();
  // The referral coupon, while it can be offered at all (a withdrawn or mistyped code is left out
  // rather than shown to the friend as a refusal).
  const configured = env().REFERRAL_COUPON;
  const coupon = configured ? await couponByCode(configured) : null;
  if (coupon && !coupon.disabledAt) target.set("coupon", coupon.code);
  target.set("ref", code);
  return redirect(`/pricing?${target.toString()}`, {
    headers: {
      "Set-Cookie": referralCookie(code, new URL(request.url).protocol === "https:"),
      "Cache-Control": "no-store",
    },
  });
}
