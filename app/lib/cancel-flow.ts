/**
 * The cancellation flow's vocabulary, defined once (issue 59, point 1; decision 0071): the fixed
 * reasons a customer may give, the offers an operator may set for a plan, and the outcomes a visit
 * to the flow can have. Client-safe: the cancel page, the operator's flow settings and the cockpit
 * read the same tables, and each table is checked complete by the compiler.
 *
 * India's Dark Patterns Guidelines 2023 ("subscription trap"): the flow is one optional step with
 * "Cancel my subscription" always beside the offer. The words here say what happens, plainly;
 * none shames the customer for leaving.
 */
import { z } from "zod";
import { findPlan } from "./plans";

export const CANCEL_REASONS = [
  "too-expensive",
  "not-using",
  "missing-feature",
  "other-app",
  "problems",
  "temporary",
  "other",
] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export const CANCEL_REASON_LABELS = {
  "too-expensive": "It costs too much",
  "not-using": "I do not use it enough",
  "missing-feature": "A feature I need is missing",
  "other-app": "I am moving to another app",
  problems: "It does not work well for me",
  temporary: "I only needed it for a while",
  other: "Something else",
} as const satisfies Record<CancelReason, string>;

export function isCancelReason(value: unknown): value is CancelReason {
  return (CANCEL_REASONS as readonly unknown[]).includes(value);
}

/** The offers an operator can set for a plan: at most one is shown. */
export const CANCEL_OFFER_KINDS = ["pause", "yearly", "discount"] as const;
export type CancelOfferKind = (typeof CANCEL_OFFER_KINDS)[number];

/** What the operator's settings page calls each offer, and when it applies. */
export const CANCEL_OFFER_RULES = {
  pause: {
    label: "Pause for 1–3 billing cycles",
    appliesTo: "Personal subscriptions that are paid up and not set to end.",
  },
  yearly: {
    label: "Move to the yearly cycle",
    appliesTo: "Monthly subscriptions: the yearly plan starts when the paid month ends.",
  },
  discount: {
    label: "A discount on the next payments (a coupon)",
    appliesTo:
      "A coupon for existing customers (not first purchases only), valid now and for the plan: the same plan starts again at the coupon's price when the paid period ends.",
  },
} as const satisfies Record<CancelOfferKind, { label: string; appliesTo: string }>;

export function isCancelOfferKind(value: unknown): value is CancelOfferKind {
  return (CANCEL_OFFER_KINDS as readonly unknown[]).includes(value);
}

export const PAUSE_CYCLE_CHOICES = [1, 2, 3] as const;
export type PauseCycles = (typeof PAUSE_CYCLE_CHOICES)[number];

/** "1 month", "2 years": a number of the plan's billing cycles, in words. */
export function cycleCount(count: number, planId: string): string {
  const unit = findPlan(planId)?.billingCycle === "yearly" ? "year" : "month";
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

export function isPauseCycles(value: unknown): value is PauseCycles {
  return (PAUSE_CYCLE_CHOICES as readonly unknown[]).includes(value);
}

/**
 * What a visit to the flow came to. `cancelled` declined any offer shown; `paused` took a pause;
 * `switch-started` went on to authorise the yearly plan or the coupon's price (taken once that
 * subscription is authorised: the cockpit reads it from the subscription, not from the click).
 * Null: the customer left the page without doing either.
 */
export const CANCEL_VISIT_OUTCOMES = ["cancelled", "paused", "switch-started"] as const;
export type CancelVisitOutcome = (typeof CANCEL_VISIT_OUTCOMES)[number];

/** The offer as the customer sees it, made on the server from the operator's flow. */
export interface CancelOfferView {
  kind: CancelOfferKind;
  title: string;
  text: string;
  /** The button that takes it: the same size and style as "Cancel my subscription". */
  button: string;
}

/** The one button that cancels, on every cancel page (person and team). */
export const CANCEL_BUTTON = "Cancel my subscription";

/** The step's form: which button was pressed, and the optional reason with it. */
export const cancelFlowSchema = z.object({
  intent: z.enum(["cancel", "take-offer"]),
  reason: z
    .union([z.literal(""), z.enum(CANCEL_REASONS, { error: "Choose one of the reasons." })])
    .default("")
    .transform((value) => (value === "" ? null : value)),
  details: z.string().trim().max(500, { error: "Use at most 500 characters." }).default(""),
});
