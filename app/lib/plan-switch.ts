/**
 * What a scheduled switch changes (issue 59), defined once: a new subscription that starts when
 * the current one's paid period ends, authorised now, replaces it. It is one of three things, and
 * every page and mail names it by its kind:
 *
 * - `plan`: the other billing cycle (monthly ↔ yearly);
 * - `price`: the same plan at a coupon's price (the cancellation step's discount, point 1);
 * - `method`: the same plan paid another way (point 3): a card, or UPI AutoPay.
 */
export const SWITCH_KINDS = ["plan", "price", "method"] as const;
export type SwitchKind = (typeof SWITCH_KINDS)[number];

export function switchKindOf(
  current: { planId: string; seats?: number; teamId?: string | null },
  next: { planId: string; couponId: string | null; seats?: number },
): SwitchKind {
  // A team's change of seats is a new order of the seat plan: said as a change of plan.
  if (next.planId !== current.planId || current.teamId || next.seats !== current.seats)
    return "plan";
  return next.couponId ? "price" : "method";
}

/** How Razorpay charges an authorised subscription, in a customer's words. */
export function mandateWords(method: string | null | undefined): string | null {
  switch (method) {
    case "card":
      return "a card";
    case "upi":
      return "UPI AutoPay";
    case "emandate":
      return "a bank e-mandate";
    default:
      return null;
  }
}

/** A scheduled switch in words, by kind: its heading, its status, and its "withdraw" button. */
export const SWITCH_WORDS = {
  plan: {
    heading: (to: string) => `Your switch to ${to}`,
    status: (to: string, on: string) => `Switching to ${to} on ${on}`,
    withdraw: (current: string) => `Stay on ${current}`,
  },
  price: {
    heading: () => "Your new price",
    status: (_to: string, on: string) => `At the coupon's price from ${on}`,
    withdraw: () => "Keep the current price",
  },
  method: {
    heading: () => "Your new payment method",
    status: (_to: string, on: string) => `A new payment method pays from ${on}`,
    withdraw: () => "Keep paying as now",
  },
} as const satisfies Record<
  SwitchKind,
  {
    heading: (to: string) => string;
    status: (to: string, on: string) => string;
    withdraw: (current: string) => string;
  }
>;
