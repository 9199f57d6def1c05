/**
 * A coupon as pricing and checkout show it: for each paid plan, its price with the coupon and
 * for how long, or the reason it does not apply. Plain data for a loader.
 */
import { couponMethodText, couponSummary, normalizeCouponCode } from "~/lib/coupons";
import { PAID_PLAN_IDS, type PaidPlanId, planById } from "~/lib/plans";
import type { Executor } from "../db";
import { quoteCoupon } from "./quote.server";

export interface CouponPlanView {
  ok: boolean;
  /** The refusal, when not ok. */
  message: string;
  listPaise: number;
  pricePaise: number;
  /** Charges at the coupon price: 1, N, or null for every one. */
  charges: number | null;
  /** "20% off for the first 3 months". */
  summary: string;
}

export interface CouponView {
  code: string;
  /** "Only when you pay with UPI AutoPay." or "". */
  method: string;
  plans: Record<PaidPlanId, CouponPlanView>;
}

export async function couponView(
  code: string,
  buyer: { id: string; email: string } | null,
  options: { database?: Executor; now?: Date } = {},
): Promise<CouponView> {
  let method = "";
  const entries = await Promise.all(
    PAID_PLAN_IDS.map(async (planId): Promise<[PaidPlanId, CouponPlanView]> => {
      const plan = planById(planId);
      const result = await quoteCoupon(code, planId, buyer, options);
      if (!result.ok)
        return [
          planId,
          {
            ok: false,
            message: result.message,
            listPaise: plan.pricePaise,
            pricePaise: plan.pricePaise,
            charges: null,
            summary: "",
          },
        ];
      const { quote } = result;
      method = couponMethodText(quote.terms.offerMethod);
      return [
        planId,
        {
          ok: true,
          message: "",
          listPaise: quote.listPaise,
          pricePaise: quote.pricePaise,
          charges: quote.charges,
          summary: couponSummary(quote.terms, plan.billingCycle),
        },
      ];
    }),
  );
  return {
    code: normalizeCouponCode(code),
    method,
    plans: Object.fromEntries(entries) as Record<PaidPlanId, CouponPlanView>,
  };
}
