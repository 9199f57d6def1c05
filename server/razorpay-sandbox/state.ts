/**
 * The subscription state machine over plain objects: plans, subscriptions, cancellation and
 * updates. Every function works on a transaction (`Tx`): a copy of the state that the store keeps
 * only if the function returns, plus the webhook events it raised (snapshots at the time).
 * Payments, charges and refunds are in billing.ts.
 */
import type {
  DisputeEntity,
  EventEnvelope,
  InvoiceEntity,
  PauseInitiator,
  PaymentEntity,
  PlanEntity,
  RefundEntity,
  SandboxState,
  SubscriptionEntity,
  SubscriptionRecord,
} from "./entities";
import type { SandboxCurrency } from "./currencies";
import { checkLinkableOffer } from "./offers";
import { badRequest, newId, notFound, outNotes, type Notes, type Period } from "./util";

export const ACCOUNT_ID = "acc_Sandbox0000001";

export interface Tx {
  state: SandboxState;
  /** The account's setting: whether it may charge in currencies other than rupees. */
  international: boolean;
  /** Unix seconds. */
  now: number;
  /** Absolute URL of the router root. */
  publicUrl: string;
  events: EventEnvelope[];
}

/** Records a webhook event; `entities` are snapshotted now, in the order given (= `contains`). */
export function emit(
  tx: Tx,
  event: string,
  entities: {
    subscription?: SubscriptionEntity;
    payment?: PaymentEntity;
    refund?: RefundEntity;
    invoice?: InvoiceEntity;
    dispute?: DisputeEntity;
  },
): void {
  const payload: EventEnvelope["payload"] = {};
  const contains: string[] = [];
  for (const [name, entity] of Object.entries(entities)) {
    if (!entity) continue;
    contains.push(name);
    Object.assign(payload, { [name]: { entity: structuredClone(entity) } });
  }
  tx.events.push({
    entity: "event",
    account_id: ACCOUNT_ID,
    event,
    contains,
    payload,
    created_at: tx.now,
  });
}

export interface PlanInput {
  period: Period;
  interval: number;
  item: {
    name: string;
    amount: number;
    currency: SandboxCurrency;
    description?: string | undefined;
  };
  notes?: Notes | undefined;
}

/**
 * Razorpay takes other currencies only once the account's international payments are enabled;
 * until then a plan in one is refused (the sandbox's words; the site shows them to the operator).
 */
function checkCurrencyEnabled(tx: Tx, currency: SandboxCurrency, field: string): void {
  if (currency !== "INR" && !tx.international)
    badField(
      `International payments are not enabled for this account: ${currency} cannot be charged. Enable them on the Razorpay Dashboard (Account & Settings → International payments).`,
      field,
    );
}

export function createPlan(tx: Tx, input: PlanInput): PlanEntity {
  checkCurrencyEnabled(tx, input.item.currency, "currency");
  const plan: PlanEntity = {
    id: newId("plan"),
    entity: "plan",
    interval: input.interval,
    period: input.period,
    item: {
      id: newId("item"),
      active: true,
      name: input.item.name,
      description: input.item.description ?? null,
      amount: input.item.amount,
      unit_amount: input.item.amount,
      currency: input.item.currency,
      type: "plan",
      unit: null,
      tax_inclusive: false,
      hsn_code: null,
      sac_code: null,
      tax_rate: null,
      tax_id: null,
      tax_group_id: null,
      created_at: tx.now,
      updated_at: tx.now,
    },
    notes: outNotes(input.notes),
    created_at: tx.now,
  };
  tx.state.plans[plan.id] = plan;
  return plan;
}

export function getPlan(state: SandboxState, id: string): PlanEntity {
  const plan = state.plans[id];
  if (!plan) throw notFound();
  return plan;
}

export function getSubscription(state: SandboxState, id: string): SubscriptionRecord {
  const record = state.subscriptions[id];
  if (!record) throw notFound();
  return record;
}

export interface SubscriptionInput {
  plan_id: string;
  total_count: number;
  quantity?: number | undefined;
  start_at?: number | undefined;
  expire_by?: number | undefined;
  customer_notify?: boolean | 0 | 1 | undefined;
  notes?: Notes | undefined;
  offer_id?: string | undefined;
  addons?:
    | {
        item: {
          name: string;
          amount: number;
          currency: SandboxCurrency;
          description?: string | undefined;
        };
      }[]
    | undefined;
}

export function createSubscription(tx: Tx, input: SubscriptionInput): SubscriptionEntity {
  const plan = tx.state.plans[input.plan_id];
  if (!plan) badField("The id provided does not exist", "plan_id");
  checkCurrencyEnabled(tx, plan.item.currency, "plan_id");
  if (input.addons?.some(({ item }) => item.currency !== plan.item.currency))
    badField("The addon's currency must be the plan's currency", "addons");
  if (input.start_at !== undefined && input.start_at <= tx.now)
    badField("start_at cannot be less than current time", "start_at");
  if (input.expire_by !== undefined && input.expire_by <= tx.now)
    badField("expire_by cannot be less than current time", "expire_by");
  if (input.offer_id !== undefined) checkLinkableOffer(tx.state, tx.now, input.offer_id);
  // Razorpay charges an upfront amount with an immediate start on top of the first charge; the
  // sandbox implements only the future start the site uses (a team's seats added mid-cycle).
  if (input.addons?.length && input.start_at === undefined)
    badField("The sandbox charges an upfront amount only with a future start_at", "addons");
  const id = newId("sub");
  const startAt = input.start_at ?? null;
  const entity: SubscriptionEntity = {
    id,
    entity: "subscription",
    plan_id: input.plan_id,
    customer_id: null,
    status: "created",
    current_start: null,
    current_end: null,
    ended_at: null,
    quantity: input.quantity ?? 1,
    notes: outNotes(input.notes),
    charge_at: startAt,
    start_at: startAt,
    end_at: null,
    auth_attempts: 0,
    total_count: input.total_count,
    paid_count: 0,
    customer_notify: input.customer_notify === false || input.customer_notify === 0 ? 0 : 1,
    created_at: tx.now,
    expire_by: input.expire_by ?? null,
    short_url: `${tx.publicUrl}/hosted/${id}`,
    has_scheduled_changes: false,
    change_scheduled_at: null,
    source: "api",
    payment_method: null,
    offer_id: input.offer_id ?? null,
    remaining_count: input.total_count,
  };
  tx.state.subscriptions[id] = {
    entity,
    method: null,
    vpa: null,
    scheduledCancel: false,
    scheduledChange: null,
    upfront: (input.addons ?? []).map(({ item }) => ({ name: item.name, amount: item.amount })),
  };
  return entity;
}

function badField(description: string, field: string): never {
  throw badRequest(description, field);
}

/** Drops any scheduled cancel or plan change. */
export function clearSchedule(record: SubscriptionRecord): void {
  record.scheduledCancel = false;
  record.scheduledChange = null;
  record.entity.has_scheduled_changes = false;
  record.entity.change_scheduled_at = null;
}

/** Ends a subscription now (status `cancelled`) and raises `subscription.cancelled`. */
export function endNow(tx: Tx, record: SubscriptionRecord): void {
  clearSchedule(record);
  record.entity.status = "cancelled";
  record.entity.ended_at = tx.now;
  record.entity.charge_at = null;
  emit(tx, "subscription.cancelled", { subscription: record.entity });
}

export function cancelSubscription(tx: Tx, id: string, atCycleEnd: boolean): SubscriptionEntity {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (sub.status === "cancelled" || sub.status === "completed" || sub.status === "expired")
    throw badRequest(`Subscription is not cancellable in ${sub.status} status.`);
  if (atCycleEnd && (sub.status === "active" || sub.status === "pending")) {
    record.scheduledCancel = true;
    sub.has_scheduled_changes = true;
    sub.change_scheduled_at = sub.current_end;
    return sub;
  }
  endNow(tx, record);
  return sub;
}

/**
 * Pause, as Razorpay documents it: only an `active` subscription pauses (an `authenticated` one is
 * cancelled instead); nothing is charged while paused. `by` says who paused it: the merchant
 * (the API) or the customer in their UPI app (the sandbox's control stands for that app).
 */
export function pauseSubscription(tx: Tx, id: string, by: PauseInitiator): SubscriptionEntity {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (sub.status === "authenticated") {
    endNow(tx, record);
    return sub;
  }
  if (sub.status !== "active")
    throw badRequest(`Subscription cannot be paused in ${sub.status} status.`);
  sub.status = "paused";
  sub.paused_at = tx.now;
  sub.pause_initiated_by = by;
  sub.charge_at = null;
  emit(tx, "subscription.paused", { subscription: sub });
  return sub;
}

/**
 * Resume: back to `active`, the next charge at the end of the period already paid (or now, if it
 * has run out). A pause the customer made in their UPI app only they can resume.
 */
export function resumeSubscription(tx: Tx, id: string, by: PauseInitiator): SubscriptionEntity {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (sub.status !== "paused")
    throw badRequest(`Subscription cannot be resumed in ${sub.status} status.`);
  if (sub.pause_initiated_by === "customer" && by !== "customer")
    throw badRequest(
      "This subscription was paused by the customer from their UPI app; only the customer can resume it.",
    );
  sub.status = "active";
  sub.paused_at = null;
  sub.pause_initiated_by = null;
  sub.charge_at = Math.max(sub.current_end ?? tx.now, tx.now);
  emit(tx, "subscription.resumed", { subscription: sub });
  return sub;
}

export interface UpdateInput {
  plan_id?: string | undefined;
  quantity?: number | undefined;
  remaining_count?: number | undefined;
  schedule_change_at?: "now" | "cycle_end" | undefined;
  customer_notify?: boolean | 0 | 1 | undefined;
}

export function updateSubscription(tx: Tx, id: string, input: UpdateInput): SubscriptionEntity {
  const record = getSubscription(tx.state, id);
  const sub = record.entity;
  if (sub.status !== "authenticated" && sub.status !== "active")
    throw badRequest(`Subscription cannot be updated in ${sub.status} status.`);
  if (record.method === "upi")
    throw badRequest("Subscription cannot be updated when the payment method is UPI or emandate.");
  if (input.plan_id !== undefined) {
    const next = tx.state.plans[input.plan_id];
    if (!next) badField("The id provided does not exist", "plan_id");
    if (next.item.currency !== getPlan(tx.state, sub.plan_id).item.currency)
      badField("A subscription cannot change to a plan in another currency", "plan_id");
  }
  const change = {
    plan_id: input.plan_id ?? sub.plan_id,
    quantity: input.quantity ?? sub.quantity,
    remaining_count: input.remaining_count ?? sub.remaining_count,
  };
  if (input.customer_notify !== undefined)
    sub.customer_notify = input.customer_notify === false || input.customer_notify === 0 ? 0 : 1;
  if (input.schedule_change_at === "cycle_end") {
    record.scheduledChange = change;
    sub.has_scheduled_changes = true;
    sub.change_scheduled_at = sub.current_end ?? sub.charge_at;
    return sub;
  }
  applyChange(sub, change);
  emit(tx, "subscription.updated", { subscription: sub });
  return sub;
}

export function applyChange(
  sub: SubscriptionEntity,
  change: { plan_id: string; quantity: number; remaining_count: number },
): void {
  sub.plan_id = change.plan_id;
  sub.quantity = change.quantity;
  sub.remaining_count = change.remaining_count;
  sub.total_count = sub.paid_count + change.remaining_count;
}

export function cancelScheduledChanges(tx: Tx, id: string): SubscriptionEntity {
  const record = getSubscription(tx.state, id);
  clearSchedule(record);
  return record.entity;
}

/** What the subscription will look like once its scheduled changes apply. */
export function scheduledView(state: SandboxState, id: string): SubscriptionEntity {
  const record = getSubscription(state, id);
  if (!record.entity.has_scheduled_changes)
    throw badRequest("There are no scheduled changes for this subscription.");
  const view = structuredClone(record.entity);
  if (record.scheduledCancel) view.status = "cancelled";
  if (record.scheduledChange) applyChange(view, record.scheduledChange);
  return view;
}

/** `{entity:"collection", count, items}`, newest first, after `skip`, at most `count`. */
export function collection<T>(items: T[], count: number, skip: number) {
  const page = items
    .slice()
    .reverse()
    .slice(skip, skip + count);
  return { entity: "collection" as const, count: page.length, items: page };
}
