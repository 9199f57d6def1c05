/**
 * A subscription's state, defined once (issue 54, point 1). Two tables, each checked complete by
 * the compiler (`satisfies Record<…>`), so a new state does not compile until every column has a
 * value:
 *
 * - `STATUS_RULES`: Razorpay's nine statuses, and what each means for the rules that read the
 *   stored status alone (SQL filters, entitlement, dunning, checkout's "already subscribed").
 * - `STATE_RULES`: the states a person sees, Razorpay's status refined by ours (a cancellation
 *   at the period's end, a switch scheduled, a pause made in a UPI app, an end that gave no Pro):
 *   what it grants, whether a charge is coming, its words for the customer and the operator, and
 *   the commands it allows.
 *
 * Everything else asks these tables; comparing a subscription's status with a string literal
 * anywhere else fails lint (eslint.config.js, "subscription-status-literal"). Client-safe: the
 * account pages' components read the commands too.
 */

export const SUBSCRIPTION_STATUSES = [
  "created",
  "authenticated",
  "active",
  "pending",
  "halted",
  "cancelled",
  "completed",
  "expired",
  "paused",
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * How long a status gives the subscription's plan:
 * - "to-next-charge": running and charging (or in Razorpay's retries): to the period's end, or
 *   its first charge, or open;
 * - "paid-period": no more charges, but the time already paid runs out first;
 * - "nothing".
 */
export type StatusGrant = "to-next-charge" | "paid-period" | "nothing";

export interface StatusRules {
  /** Begun: past its checkout, and not a checkout that expired unpaid. */
  started: boolean;
  grants: StatusGrant;
  /** Razorpay charges the next period by itself. */
  renews: boolean;
  /** Still runs (may charge again, or resume): one such subscription per buyer. */
  runs: boolean;
  /** Its mandate is in use: Razorpay charges it by a date, or retries a failed charge. */
  charges: boolean;
  /** Razorpay may still charge it: what must be cancelled there when it has to end at once. */
  mayCharge: boolean;
  /** Paid, and charging on (the last charge may be in Razorpay's retries): counted in MRR. */
  paying: boolean;
  /** Its current period is paid and its last charge went through (Razorpay's "active"). */
  paidUp: boolean;
  /** Authorised or paid, no charge failing: a switch that has started or will. */
  goodStanding: boolean;
  /** Authorised, its first charge still to come: it has paid for nothing yet. */
  awaitsFirstCharge: boolean;
  /** The buyer can still change it here (pause, resume, cancel, switch): runs, not halted. */
  manageable: boolean;
  /** The account pages' dunning banner. */
  dunning: "pending" | "halted" | null;
  /** Ended for good: nothing about it changes any more. */
  final: boolean;
}

export const STATUS_RULES = {
  created: {
    started: false,
    grants: "nothing",
    renews: false,
    runs: false,
    charges: false,
    mayCharge: true,
    paying: false,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: false,
    dunning: null,
    final: false,
  },
  authenticated: {
    started: true,
    grants: "to-next-charge",
    renews: true,
    runs: true,
    charges: true,
    mayCharge: true,
    paying: false,
    paidUp: false,
    goodStanding: true,
    awaitsFirstCharge: true,
    manageable: true,
    dunning: null,
    final: false,
  },
  active: {
    started: true,
    grants: "to-next-charge",
    renews: true,
    runs: true,
    charges: true,
    mayCharge: true,
    paying: true,
    paidUp: true,
    goodStanding: true,
    awaitsFirstCharge: false,
    manageable: true,
    dunning: null,
    final: false,
  },
  pending: {
    started: true,
    grants: "to-next-charge",
    renews: true,
    runs: true,
    charges: true,
    mayCharge: true,
    paying: true,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: true,
    dunning: "pending",
    final: false,
  },
  halted: {
    started: true,
    grants: "nothing",
    renews: false,
    runs: true,
    charges: true,
    mayCharge: true,
    paying: false,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: false,
    dunning: "halted",
    final: false,
  },
  cancelled: {
    started: true,
    grants: "paid-period",
    renews: false,
    runs: false,
    charges: false,
    mayCharge: false,
    paying: false,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: false,
    dunning: null,
    final: true,
  },
  completed: {
    started: true,
    grants: "paid-period",
    renews: false,
    runs: false,
    charges: false,
    mayCharge: false,
    paying: false,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: false,
    dunning: null,
    final: true,
  },
  expired: {
    started: false,
    grants: "nothing",
    renews: false,
    runs: false,
    charges: false,
    mayCharge: false,
    paying: false,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: false,
    dunning: null,
    final: true,
  },
  // Charges nothing while paused, but resumes (by us, or the customer in their UPI app); the
  // time already paid runs out first (issue 34: a pause stops charges, not paid time).
  paused: {
    started: true,
    grants: "paid-period",
    renews: false,
    runs: true,
    charges: false,
    mayCharge: true,
    paying: false,
    paidUp: false,
    goodStanding: false,
    awaitsFirstCharge: false,
    manageable: true,
    dunning: null,
    final: false,
  },
} as const satisfies Record<SubscriptionStatus, StatusRules>;

/** The statuses for which a rule holds: for SQL filters (`inArray(subscriptions.status, …)`). */
export function statusesWhere(test: (rules: StatusRules) => boolean): SubscriptionStatus[] {
  return SUBSCRIPTION_STATUSES.filter((status) => test(STATUS_RULES[status]));
}

/** A checkout not paid yet (and not expired): Razorpay's "created". */
export const checkoutOpen = (status: SubscriptionStatus): boolean =>
  !STATUS_RULES[status].started && !STATUS_RULES[status].final;

/** One status's rule, for a row read from the database or Razorpay. */
export const statusRules = (status: SubscriptionStatus): StatusRules => STATUS_RULES[status];

/** Named statuses, for the few places that set or await one exact status (and for tests). */
export const STATUS = Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, s])) as {
  readonly [S in SubscriptionStatus]: S;
};

/** What a person or an operator can ask of a subscription in a state. */
export const SUBSCRIPTION_COMMANDS = [
  "pause",
  "resume",
  "cancel",
  "undo-cancel",
  "switch",
  "withdraw-switch",
  "refund",
  "change-seats",
  "fix-payment",
] as const;
export type SubscriptionCommand = (typeof SUBSCRIPTION_COMMANDS)[number];

/** The states a person sees: Razorpay's status refined by what this site knows of it. */
export const SUBSCRIPTION_STATES = [
  "checkout-open",
  "activating",
  "authorised",
  "switch-scheduled",
  "active",
  "switching",
  "ending",
  "retrying",
  "halted",
  "paused",
  "paused-in-upi-app",
  "ended",
  "ended-without-pro",
  "expired",
] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

export interface StateRules {
  /** The Razorpay statuses this state refines (checked against `stateOf` by a test). */
  from: readonly SubscriptionStatus[];
  /** Whether it gives its plan now (to the next charge, the paid period's end, or not at all). */
  grants: StatusGrant;
  /** A charge is coming on a date we can promise (not while Razorpay retries on its schedule). */
  nextCharge: boolean;
  /** Short words for the customer (the status line; mails and the renewal sentence say more). */
  customer: string;
  /** Short words for the operator's lists. */
  operator: string;
  /**
   * Where cancelling is allowed: when it takes effect (at the paid period's end, or now: nothing
   * was paid, or nothing more is charged anyway), what the cancel box promises, and its button.
   */
  cancel: { at: "period-end" | "now"; words: string; button: string } | null;
  commands: readonly SubscriptionCommand[];
}

const KEEP_PAID_PERIOD =
  "You keep Pro until the end of the period you paid for; nothing more is charged. You can undo it until then.";

export const STATE_RULES = {
  "checkout-open": {
    from: ["created"],
    grants: "nothing",
    nextCharge: false,
    customer: "Waiting for payment",
    operator: "Checkout open",
    cancel: null,
    commands: [],
  },
  activating: {
    from: ["created"],
    grants: "nothing",
    nextCharge: false,
    customer: "Payment received, activating…",
    operator: "Paid in the browser; Razorpay's confirmation not in yet",
    cancel: null,
    commands: [],
  },
  // Authorised for a later first charge (a plan bought during a trial to start at its end):
  // nothing has been paid, so cancelling withdraws it at once and costs nothing.
  authorised: {
    from: ["authenticated"],
    grants: "to-next-charge",
    nextCharge: true,
    customer: "Authorised: the first charge is still to come",
    operator: "Authorised, first charge to come",
    cancel: {
      at: "now",
      words:
        "Nothing has been charged yet: cancelling withdraws the authorisation now, and no charge is ever made for it.",
      button: "Cancel before the first charge",
    },
    commands: ["cancel"],
  },
  "switch-scheduled": {
    from: ["authenticated"],
    grants: "to-next-charge",
    nextCharge: true,
    customer: "Switch scheduled: starts when the current plan ends",
    operator: "Switch scheduled",
    cancel: null,
    commands: ["withdraw-switch"],
  },
  active: {
    from: ["active"],
    grants: "to-next-charge",
    nextCharge: true,
    customer: "Active",
    operator: "Active",
    cancel: { at: "period-end", words: KEEP_PAID_PERIOD, button: "Cancel at end of period" },
    commands: ["pause", "cancel", "switch", "refund", "change-seats"],
  },
  // Active, and a switch to another plan starts when this period ends.
  switching: {
    from: ["active", "pending"],
    grants: "to-next-charge",
    nextCharge: true,
    customer: "Switching plans at the end of the paid period",
    operator: "Switching plans at the period's end",
    cancel: {
      at: "period-end",
      words:
        "You keep Pro until the end of the period you paid for; the switch is withdrawn and nothing more is charged. You can undo it until then.",
      button: "Cancel at end of period",
    },
    commands: ["cancel", "withdraw-switch", "refund"],
  },
  ending: {
    from: ["active", "pending"],
    grants: "to-next-charge",
    nextCharge: false,
    customer: "Cancelled: ends at the end of the paid period",
    operator: "Ends at the period's end",
    cancel: null,
    commands: ["undo-cancel", "refund"],
  },
  retrying: {
    from: ["pending"],
    grants: "to-next-charge",
    nextCharge: false,
    customer: "Payment failed: Razorpay is retrying",
    operator: "Payment failed, retrying",
    cancel: { at: "period-end", words: KEEP_PAID_PERIOD, button: "Cancel at end of period" },
    commands: ["cancel", "fix-payment"],
  },
  halted: {
    from: ["halted"],
    grants: "nothing",
    nextCharge: false,
    customer: "Stopped after failed payments",
    operator: "Halted after failed payments",
    cancel: null,
    commands: ["fix-payment"],
  },
  paused: {
    from: ["paused"],
    grants: "paid-period",
    nextCharge: false,
    customer: "Paused",
    operator: "Paused by the customer here",
    cancel: {
      at: "now",
      words:
        "Cancelling ends the paused subscription for good: it can no longer be resumed. You keep Pro until the end of the period you paid for.",
      button: "Cancel subscription",
    },
    commands: ["resume", "cancel"],
  },
  // Paused in the customer's UPI app: only they can resume it, there.
  "paused-in-upi-app": {
    from: ["paused"],
    grants: "paid-period",
    nextCharge: false,
    customer: "Paused in your UPI app",
    operator: "Paused in the customer's UPI app",
    cancel: {
      at: "now",
      words:
        "Cancelling ends the paused subscription for good: it can no longer be resumed. You keep Pro until the end of the period you paid for.",
      button: "Cancel subscription",
    },
    commands: ["cancel"],
  },
  ended: {
    from: ["cancelled", "completed"],
    grants: "paid-period",
    nextCharge: false,
    customer: "Ended",
    operator: "Ended",
    cancel: null,
    commands: [],
  },
  // Refunded in full, a duplicate, ended by us at once, never paid: it gave no Pro.
  "ended-without-pro": {
    from: ["cancelled"],
    grants: "nothing",
    nextCharge: false,
    customer: "Ended",
    operator: "Ended without Pro",
    cancel: null,
    commands: [],
  },
  expired: {
    from: ["expired"],
    grants: "nothing",
    nextCharge: false,
    customer: "Expired before it was paid",
    operator: "Checkout expired unpaid",
    cancel: null,
    commands: [],
  },
} as const satisfies Record<SubscriptionState, StateRules>;

/** The facts `stateOf` reads: a stored row, or the overview's summary of one. */
export interface StateFacts {
  status: SubscriptionStatus;
  cancelAtCycleEnd: boolean;
  /** Checkout confirmed in the browser, Razorpay's confirmation not in yet. */
  checkoutVerified?: boolean;
  /** This subscription is a switch's own, replacing another. */
  replacesAnother?: boolean;
  /** A switch to another plan is scheduled to follow this one. */
  switchFollows?: boolean;
  pausedInUpiApp?: boolean;
  /** Its end reason says it gave no Pro (refunded in full, a duplicate, ended by us at once). */
  endedWithoutPro?: boolean;
}

/** The one place a subscription's status and our facts become the state a person sees. */
export function stateOf(facts: StateFacts): SubscriptionState {
  switch (facts.status) {
    case "created":
      return facts.checkoutVerified ? "activating" : "checkout-open";
    case "authenticated":
      return facts.replacesAnother ? "switch-scheduled" : "authorised";
    case "active":
    case "pending":
      if (facts.switchFollows) return "switching";
      if (facts.cancelAtCycleEnd) return "ending";
      return facts.status === "active" ? "active" : "retrying";
    case "halted":
      return "halted";
    case "paused":
      return facts.pausedInUpiApp ? "paused-in-upi-app" : "paused";
    case "cancelled":
      return facts.endedWithoutPro ? "ended-without-pro" : "ended";
    case "completed":
      return "ended";
    case "expired":
      return "expired";
  }
}

/** Whether a state allows a command. */
export function allows(state: SubscriptionState, command: SubscriptionCommand): boolean {
  return (STATE_RULES[state].commands as readonly SubscriptionCommand[]).includes(command);
}
