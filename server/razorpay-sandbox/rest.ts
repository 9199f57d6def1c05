/**
 * Razorpay's REST contract (`/v1/…`, Basic auth) and the sandbox's control routes
 * (`/control/…`, Basic auth): "Charge this now" and the webhook delivery log.
 */
import { Router } from "express";
import { z } from "zod";
import { checkoutPay, controlCharge, retryDue } from "./billing";
import { SANDBOX_CURRENCIES } from "./currencies";
import { basicAuth, flag, notesInput, pageQuery, parse, parseBody } from "./http";
import { decideDispute, DISPUTE_OUTCOMES, raiseDispute } from "./disputes";
import { refundPaymentOnce } from "./ledger";
import { createOffer, getOffer, unlinkOffer } from "./offers";
import {
  cancelScheduledChanges,
  cancelSubscription,
  pauseSubscription,
  resumeSubscription,
  collection,
  createPlan,
  createSubscription,
  getPlan,
  getSubscription,
  scheduledView,
  updateSubscription,
} from "./state";
import type { Store } from "./store";
import { notFound } from "./util";
import type { WebhookQueue } from "./webhooks";

const planBody = z
  .strictObject({
    period: z.enum(["daily", "weekly", "monthly", "yearly"]),
    interval: z.number().int().min(1),
    item: z.strictObject({
      name: z.string().min(1).max(255),
      amount: z.number().int().min(100, "The amount must be atleast INR 1.00"),
      currency: z.enum(SANDBOX_CURRENCIES, { error: "Currency is not supported" }),
      description: z.string().max(2048).optional(),
    }),
    notes: notesInput.optional(),
  })
  .refine((plan) => plan.period !== "daily" || plan.interval >= 7, {
    message: "The interval must be at least 7 for a daily plan",
    path: ["interval"],
  });

const unixTime = z.number().int().positive();

const scanBody = z.strictObject({ outcome: z.enum(["success", "failure"]) });

const disputeBody = z.strictObject({
  amount: z.number().int().positive().optional(),
  reason_code: z.string().max(50).optional(),
});

const subscriptionBody = z.strictObject({
  plan_id: z.string().min(1),
  total_count: z.number().int().min(1),
  quantity: z.number().int().min(1).optional(),
  start_at: unixTime.optional(),
  expire_by: unixTime.optional(),
  customer_notify: flag.optional(),
  notes: notesInput.optional(),
  offer_id: z.string().min(1).optional(),
  /** An upfront amount: charged with the authentication (instead of the refunded token). */
  addons: z
    .array(
      z.strictObject({
        item: z.strictObject({
          name: z.string().min(1).max(255),
          amount: z.number().int().min(100, "The amount must be atleast INR 1.00"),
          currency: z.enum(SANDBOX_CURRENCIES, { error: "Currency is not supported" }),
          description: z.string().max(2048).optional(),
        }),
      }),
    )
    .max(10)
    .optional(),
});

/** The Dashboard's offer form, as a control route (Razorpay has no API to create offers). */
const offerBody = z
  .strictObject({
    name: z.string().min(1).max(100),
    display_text: z.string().max(255).optional(),
    type: z.enum(["single_use", "cycles", "forever"]),
    cycles: z.number().int().min(1).max(1000).optional(),
    discount_type: z.enum(["percentage", "flat"]),
    discount_value: z.number().int().min(1),
    max_discount: z.number().int().min(1).optional(),
    payment_method: z.enum(["card", "upi"]).optional(),
    on_failure: z.enum(["allow", "block"]).optional(),
    starts_at: unixTime.optional(),
    expires_at: unixTime.optional(),
    max_usage: z.number().int().min(1).optional(),
  })
  .refine((offer) => offer.type !== "cycles" || offer.cycles !== undefined, {
    message: "The number of cycles is required for this offer type",
    path: ["cycles"],
  });

const cancelBody = z.strictObject({ cancel_at_cycle_end: flag.optional() });

const updateBody = z.strictObject({
  plan_id: z.string().min(1).optional(),
  quantity: z.number().int().min(1).optional(),
  remaining_count: z.number().int().min(1).optional(),
  schedule_change_at: z.enum(["now", "cycle_end"]).optional(),
  customer_notify: flag.optional(),
});

const refundBody = z.strictObject({
  amount: z.number().int().min(100, "The refund amount must be atleast INR 1.00").optional(),
  speed: z.enum(["normal", "optimum"]).optional(),
  notes: notesInput.optional(),
  receipt: z.string().max(40).optional(),
});

const chargeBody = z.strictObject({ fail: z.boolean().optional() });
const holdBody = z.strictObject({ hold: z.boolean() });
const pauseBody = z.strictObject({ pause_at: z.literal("now").optional() });
const resumeBody = z.strictObject({ resume_at: z.literal("now").optional() });
const clockBody = z.strictObject({
  seconds: z
    .number()
    .int()
    .min(1)
    .max(366 * 86_400),
});

const subscriptionQuery = pageQuery.extend({ plan_id: z.string().optional() });
const invoiceQuery = pageQuery.extend({
  subscription_id: z.string().optional(),
  payment_id: z.string().optional(),
});

export function restRouter(options: {
  keyId: string;
  keySecret: string;
  store: Store;
  webhooks: WebhookQueue;
}): Router {
  const { store, webhooks } = options;
  const router = Router();
  const auth = basicAuth(options.keyId, options.keySecret);
  router.use("/v1", auth);
  router.use("/control", auth);
  router.use(["/v1", "/control"], (_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });

  router.post("/v1/plans", (req, res) => {
    const input = parseBody(planBody, req);
    res.json(store.change((tx) => createPlan(tx, input)));
  });
  router.get("/v1/plans/:id", (req, res) => {
    res.json(store.read((state) => getPlan(state, req.params.id)));
  });
  router.get("/v1/plans", (req, res) => {
    const { count, skip } = parse(pageQuery, req.query);
    res.json(store.read((state) => collection(Object.values(state.plans), count, skip)));
  });

  router.post("/v1/subscriptions", (req, res) => {
    const input = parseBody(subscriptionBody, req);
    res.json(store.change((tx) => createSubscription(tx, input)));
  });
  router.get("/v1/subscriptions/:id", (req, res) => {
    res.json(store.read((state) => getSubscription(state, req.params.id).entity));
  });
  router.get("/v1/subscriptions", (req, res) => {
    const { count, skip, plan_id } = parse(subscriptionQuery, req.query);
    res.json(
      store.read((state) => {
        const subs = Object.values(state.subscriptions)
          .map((record) => record.entity)
          .filter((sub) => plan_id === undefined || sub.plan_id === plan_id);
        return collection(subs, count, skip);
      }),
    );
  });
  router.post("/v1/subscriptions/:id/cancel", (req, res) => {
    const { cancel_at_cycle_end } = parseBody(cancelBody, req);
    const atCycleEnd = cancel_at_cycle_end === true || cancel_at_cycle_end === 1;
    res.json(store.change((tx) => cancelSubscription(tx, req.params.id, atCycleEnd)));
  });
  router.post("/v1/subscriptions/:id/pause", (req, res) => {
    parseBody(pauseBody, req);
    res.json(store.change((tx) => pauseSubscription(tx, req.params.id, "merchant")));
  });
  router.post("/v1/subscriptions/:id/resume", (req, res) => {
    parseBody(resumeBody, req);
    res.json(store.change((tx) => resumeSubscription(tx, req.params.id, "merchant")));
  });
  router.patch("/v1/subscriptions/:id", (req, res) => {
    const input = parseBody(updateBody, req);
    res.json(store.change((tx) => updateSubscription(tx, req.params.id, input)));
  });
  router.post("/v1/subscriptions/:id/cancel_scheduled_changes", (req, res) => {
    res.json(store.change((tx) => cancelScheduledChanges(tx, req.params.id)));
  });
  router.get("/v1/subscriptions/:id/retrieve_scheduled_changes", (req, res) => {
    res.json(store.read((state) => scheduledView(state, req.params.id)));
  });
  router.delete("/v1/subscriptions/:id/:offerId", (req, res) => {
    res.json(
      store.change((tx) => {
        const record = getSubscription(tx.state, req.params.id);
        unlinkOffer(record, req.params.offerId);
        return record.entity;
      }),
    );
  });

  router.get("/v1/payments/:id", (req, res) => {
    res.json(
      store.read((state) => {
        const record = state.payments[req.params.id];
        if (!record) throw notFound();
        return record.entity;
      }),
    );
  });
  router.post("/v1/payments/:id/refund", (req, res) => {
    const input = parseBody(refundBody, req);
    const key = req.get("x-refund-idempotency") ?? null;
    res.json(store.change((tx) => refundPaymentOnce(tx, req.params.id, input, key)));
  });
  router.get("/v1/payments/:id/refunds", (req, res) => {
    const { count, skip } = parse(pageQuery, req.query);
    res.json(
      store.read((state) => {
        if (!state.payments[req.params.id]) throw notFound();
        const refunds = Object.values(state.refunds).filter((r) => r.payment_id === req.params.id);
        return collection(refunds, count, skip);
      }),
    );
  });
  router.get("/v1/refunds/:id", (req, res) => {
    res.json(
      store.read((state) => {
        const refund = state.refunds[req.params.id];
        if (!refund) throw notFound();
        return refund;
      }),
    );
  });

  router.get("/v1/invoices", (req, res) => {
    const { count, skip, subscription_id, payment_id } = parse(invoiceQuery, req.query);
    res.json(
      store.read((state) => {
        const invoices = Object.values(state.invoices).filter(
          (inv) =>
            (subscription_id === undefined || inv.subscription_id === subscription_id) &&
            (payment_id === undefined || inv.payment_id === payment_id),
        );
        return collection(invoices, count, skip);
      }),
    );
  });
  router.get("/v1/invoices/:id", (req, res) => {
    res.json(
      store.read((state) => {
        const invoice = state.invoices[req.params.id];
        if (!invoice) throw notFound();
        return invoice;
      }),
    );
  });

  // The test clock (as Stripe's): time moves on by `seconds`, and Razorpay's retries due by then
  // are made, in order. For tests and demos of what happens days later.
  router.post("/control/clock/advance", (req, res) => {
    const { seconds } = parseBody(clockBody, req);
    res.json(
      store.change((tx) => {
        tx.state.clockOffsetSeconds = (tx.state.clockOffsetSeconds ?? 0) + seconds;
        tx.now += seconds;
        return { now: tx.now, retried: retryDue(tx) };
      }),
    );
  });
  router.post("/control/subscriptions/:id/charge", (req, res) => {
    const { fail } = parseBody(chargeBody, req);
    res.json(store.change((tx) => controlCharge(tx, req.params.id, fail === true)));
  });
  // The customer pauses or resumes the mandate in their UPI app (Razorpay then tells the merchant).
  router.post("/control/subscriptions/:id/pause-from-upi-app", (req, res) => {
    res.json(store.change((tx) => pauseSubscription(tx, req.params.id, "customer")));
  });
  router.post("/control/subscriptions/:id/resume-from-upi-app", (req, res) => {
    res.json(store.change((tx) => resumeSubscription(tx, req.params.id, "customer")));
  });
  // The customer revokes the mandate in their UPI app or bank portal: cancelled at once, and
  // Razorpay's webhook says nothing of who did it.
  router.post("/control/subscriptions/:id/cancel-from-upi-app", (req, res) => {
    res.json(store.change((tx) => cancelSubscription(tx, req.params.id, false)));
  });
  router.post("/control/offers", (req, res) => {
    const input = parseBody(offerBody, req);
    res.json(store.change((tx) => createOffer(tx.state, tx.now, input)));
  });
  router.get("/control/offers/:id", (req, res) => {
    res.json(store.read((state) => getOffer(state, req.params.id)));
  });
  router.post("/control/offers/:id/disable", (req, res) => {
    res.json(
      store.change((tx) => {
        const offer = getOffer(tx.state, req.params.id);
        offer.enabled = false;
        return offer;
      }),
    );
  });
  // The buyer scans the mandate's QR code shown by an open checkout and approves (or declines)
  // it in their UPI app: the checkout, which waits for that answer, finishes with it.
  router.post("/control/checkout/subscriptions/:id/scan", (req, res) => {
    const { outcome } = parseBody(scanBody, req);
    res.json(
      store.change((tx) => {
        const result = checkoutPay(tx, req.params.id, { method: "upi", outcome });
        getSubscription(tx.state, req.params.id).upiScan = {
          outcome,
          paymentId: result.payment?.id ?? "",
        };
        return { subscription: result.subscription, payment: result.payment ?? null };
      }),
    );
  });
  // Disputes (disputes.ts): read as Razorpay's API answers them, raised and decided as a bank.
  router.get("/v1/disputes/:id", (req, res) => {
    res.json(
      store.read((state) => {
        const dispute = state.disputes?.[req.params.id];
        if (!dispute) throw notFound();
        return dispute;
      }),
    );
  });
  router.post("/control/payments/:id/dispute", (req, res) => {
    const input = parseBody(disputeBody, req);
    res.json(store.change((tx) => raiseDispute(tx, req.params.id, input)));
  });
  router.post("/control/disputes/:id/:outcome", (req, res) => {
    const outcome = parse(z.enum(DISPUTE_OUTCOMES), req.params.outcome);
    res.json(store.change((tx) => decideDispute(tx, req.params.id, outcome)));
  });
  router.get("/control/webhooks", (_req, res) => {
    res.json({ items: webhooks.list() });
  });
  // The merchant's webhook endpoint unreachable for a while (an outage, a wrong URL): events
  // wait, then go out late and in order when it is released, as Razorpay's retries bring them.
  router.post("/control/webhooks/hold", (req, res) => {
    const { hold } = parseBody(holdBody, req);
    webhooks.hold(hold);
    res.json({ hold, items: webhooks.list() });
  });

  return router;
}
