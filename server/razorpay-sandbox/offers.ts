/**
 * Subscription offers as Razorpay documents them (payments/subscriptions/offers.md): made in the
 * Dashboard (here: the control routes), linked by `offer_id` when a subscription is created,
 * taken when the customer authorises if the offer is still on and the method is the offer's,
 * then applied to the first charge (single use), the first N charges, or every charge. A
 * discount that would leave ₹1 or less is not applied.
 */
import type { Method, OfferRecord, SandboxState, SubscriptionRecord } from "./entities";
import { badRequest, newId, notFound } from "./util";

export interface OfferInput {
  name: string;
  display_text?: string | undefined;
  type: OfferRecord["type"];
  cycles?: number | undefined;
  discount_type: OfferRecord["discount_type"];
  discount_value: number;
  max_discount?: number | undefined;
  payment_method?: Method | undefined;
  on_failure?: OfferRecord["on_failure"] | undefined;
  starts_at?: number | undefined;
  expires_at?: number | undefined;
  max_usage?: number | undefined;
}

/** The Dashboard's "Create offer". */
export function createOffer(state: SandboxState, now: number, input: OfferInput): OfferRecord {
  if (input.type === "cycles" && !input.cycles)
    throw badRequest("The number of cycles is required for this offer type", "cycles");
  if (input.discount_type === "percentage" && input.discount_value > 100)
    throw badRequest("The discount percentage must be 100 or less", "discount_value");
  const offer: OfferRecord = {
    id: newId("offer"),
    name: input.name,
    display_text: input.display_text ?? null,
    type: input.type,
    cycles: input.type === "cycles" ? (input.cycles ?? null) : null,
    discount_type: input.discount_type,
    discount_value: input.discount_value,
    max_discount: input.max_discount ?? null,
    payment_method: input.payment_method ?? null,
    on_failure: input.on_failure ?? "block",
    starts_at: input.starts_at ?? null,
    expires_at: input.expires_at ?? null,
    max_usage: input.max_usage ?? null,
    used: 0,
    enabled: true,
    created_at: now,
  };
  (state.offers ??= {})[offer.id] = offer;
  return offer;
}

export function getOffer(state: SandboxState, id: string): OfferRecord {
  const offer = state.offers?.[id];
  if (!offer) throw notFound();
  return offer;
}

/** Why an offer cannot be taken now, or null when it can. */
function unavailable(offer: OfferRecord, now: number): string | null {
  if (!offer.enabled) return "The offer is disabled";
  if (offer.starts_at !== null && now < offer.starts_at) return "The offer has not started yet";
  if (offer.expires_at !== null && now >= offer.expires_at) return "The offer has expired";
  if (offer.max_usage !== null && offer.used >= offer.max_usage)
    return "The offer has reached its maximum usage";
  return null;
}

/** `offer_id` on "Create a subscription": an offer that exists and can be taken now. */
export function checkLinkableOffer(state: SandboxState, now: number, offerId: string): void {
  const offer = state.offers?.[offerId];
  if (!offer) throw badRequest("The id provided does not exist", "offer_id");
  const reason = unavailable(offer, now);
  if (reason) throw badRequest(`${reason}`, "offer_id");
}

/**
 * The customer authorises with `method`: the offer is taken (its use counted, its charges set),
 * or, when it cannot apply (method, dates, usage), the payment goes on without it ("allow") or
 * is refused ("block"), as the offer's "On Payment Failure" says.
 */
export function takeOffer(
  state: SandboxState,
  now: number,
  record: SubscriptionRecord,
  method: Method,
): void {
  const offerId = record.entity.offer_id;
  if (!offerId) return;
  const offer = getOffer(state, offerId);
  const reason =
    unavailable(offer, now) ??
    (offer.payment_method !== null && offer.payment_method !== method
      ? `The offer is not applicable on ${method === "upi" ? "UPI" : "card"} payments`
      : null);
  if (reason) {
    if (offer.on_failure === "block") throw badRequest(`${reason}.`, "offer_id");
    record.offerChargesLeft = 0;
    return;
  }
  offer.used += 1;
  record.offerChargesLeft =
    offer.type === "forever" ? null : offer.type === "single_use" ? 1 : (offer.cycles ?? 0);
}

/** What a charge of `gross` paise comes to after the subscription's offer (if it still applies). */
export function offerPrice(state: SandboxState, record: SubscriptionRecord, gross: number): number {
  const offerId = record.entity.offer_id;
  if (!offerId || record.offerChargesLeft === 0 || record.offerChargesLeft === undefined)
    return gross;
  const offer = state.offers?.[offerId];
  if (!offer) return gross;
  const percentOff = Math.round((gross * offer.discount_value) / 100);
  const discount =
    offer.discount_type === "flat"
      ? offer.discount_value
      : offer.max_discount === null
        ? percentOff
        : Math.min(percentOff, offer.max_discount);
  // "Offers can only be applied if the chargeable amount after applying the Offer is greater than ₹1."
  return gross - discount > 100 ? gross - discount : gross;
}

/** A successful charge used one of the offer's charges. */
export function spendOfferCharge(record: SubscriptionRecord): void {
  if (typeof record.offerChargesLeft === "number" && record.offerChargesLeft > 0)
    record.offerChargesLeft -= 1;
}

/** "Delete an offer linked to a subscription": later charges are at the plan's price. */
export function unlinkOffer(record: SubscriptionRecord, offerId: string): void {
  if (record.entity.offer_id !== offerId)
    throw badRequest("The offer is not linked to this subscription", "offer_id");
  record.entity.offer_id = null;
  record.offerChargesLeft = 0;
}
