/**
 * The public side: checkout.js/css, the endpoints the checkout modal calls (guarded by the key
 * id, like Razorpay's checkout), and the hosted "update payment method" page at `short_url`.
 */
import { Router, type Response } from "express";
import { z } from "zod";
import { checkoutPay, hostedAuthorise } from "./billing";
import { CHECKOUT_CSS, CHECKOUT_JS, HOSTED_JS } from "./browser-assets";
import { hostedPage, notFoundPage } from "./hosted";
import { parseBody, requireKeyId } from "./http";
import { offerPrice } from "./offers";
import { getPlan, getSubscription } from "./state";
import { upiMandate } from "./upi";
import type { Store } from "./store";
import { hmacHex, SandboxError } from "./util";

const method = z.enum(["card", "upi"]);
const vpa = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{2,256}@[A-Za-z]{2,64}$/, "Enter a UPI ID like name@bank");

/** Where the test card was issued (Razorpay's domestic and international test cards). */
const card = z.enum(["domestic", "international"]);

const payBody = z.strictObject({
  key_id: z.string(),
  method,
  vpa: vpa.optional(),
  card: card.optional(),
  outcome: z.enum(["success", "failure"]),
});

const authoriseBody = z.strictObject({ method, vpa: vpa.optional(), card: card.optional() });

function sendAsset(res: Response, type: string, body: string): void {
  res.set("Content-Type", type).set("Cache-Control", "no-cache").send(body);
}

export function checkoutRouter(options: { keyId: string; keySecret: string; store: Store }) {
  const { store, keyId } = options;
  const router = Router();

  router.get("/checkout.js", (_req, res) => {
    sendAsset(res, "application/javascript; charset=utf-8", CHECKOUT_JS);
  });
  router.get("/checkout.css", (_req, res) => {
    sendAsset(res, "text/css; charset=utf-8", CHECKOUT_CSS);
  });
  router.get("/hosted.js", (_req, res) => {
    sendAsset(res, "application/javascript; charset=utf-8", HOSTED_JS);
  });

  // The modal may run on another origin when the sandbox stands alone (tests): plain CORS, no
  // credentials; the key id in the request is the only guard, as with Razorpay's checkout.
  router.use("/checkout/subscriptions", (req, res, next) => {
    res.set("Access-Control-Allow-Origin", "*").set("Cache-Control", "no-store");
    if (req.method !== "OPTIONS") return next();
    res
      .set("Access-Control-Allow-Methods", "GET, POST")
      .set("Access-Control-Allow-Headers", "Content-Type")
      .set("Access-Control-Max-Age", "600")
      .status(204)
      .end();
  });

  router.get("/checkout/subscriptions/:id", (req, res) => {
    requireKeyId(keyId, req.query.key_id);
    res.json(
      store.read((state, now) => {
        const record = getSubscription(state, req.params.id);
        const sub = record.entity;
        const plan = getPlan(state, sub.plan_id);
        const offer = sub.offer_id ? (state.offers?.[sub.offer_id] ?? null) : null;
        return {
          id: sub.id,
          status: sub.status,
          plan: {
            name: plan.item.name,
            amount: plan.item.amount,
            currency: plan.item.currency,
            period: plan.period,
            interval: plan.interval,
          },
          quantity: sub.quantity,
          start_at: sub.start_at,
          start_in_future: sub.start_at !== null && sub.start_at > now,
          // UPI AutoPay as NPCI allows it since UPI Collect ended: a QR code to scan on a computer,
          // the UPI app opened by this link on a phone; never a typed UPI ID.
          upi: upiMandate(sub.id, plan.item.name, plan.item.amount * sub.quantity),
          // The upfront amount (`addons`) the authentication charges today, in paise.
          upfront: (record.upfront ?? []).reduce((sum, item) => sum + item.amount, 0),
          // What checkout shows of a linked offer: its name and text, and the first charge with it.
          offer: offer
            ? {
                name: offer.name,
                display_text: offer.display_text,
                payment_method: offer.payment_method,
                amount: offerPrice(
                  state,
                  { ...record, offerChargesLeft: 1 },
                  plan.item.amount * sub.quantity,
                ),
              }
            : null,
        };
      }),
    );
  });

  /** What checkout's handler gets for a payment, or Razorpay's error body for a failed one. */
  const answerOf = (outcome: "success" | "failure", paymentId: string, subscriptionId: string) =>
    outcome === "failure"
      ? {
          error: {
            code: "BAD_REQUEST_ERROR",
            description: "Payment failed",
            source: "bank",
            step: "payment_authorization",
            reason: "payment_failed",
            field: null,
            metadata: { payment_id: paymentId, subscription_id: subscriptionId },
          },
        }
      : {
          razorpay_payment_id: paymentId,
          razorpay_subscription_id: subscriptionId,
          razorpay_signature: hmacHex(options.keySecret, `${paymentId}|${subscriptionId}`),
        };

  router.post("/checkout/subscriptions/:id/pay", (req, res) => {
    const body: unknown = req.body;
    requireKeyId(
      keyId,
      typeof body === "object" && body !== null && "key_id" in body ? body.key_id : undefined,
    );
    const input = parseBody(payBody, req);
    const result = store.change((tx) => checkoutPay(tx, req.params.id, input));
    const answer = answerOf(input.outcome, result.payment?.id ?? "", result.subscription.id);
    if (answer.error) throw new SandboxError(400, { error: answer.error });
    res.json(answer);
  });

  // What the open checkout asks while it shows the UPI QR code: whether the buyer has answered
  // in their UPI app (the control route `…/scan`), and with what.
  router.get("/checkout/subscriptions/:id/upi-scan", (req, res) => {
    requireKeyId(keyId, req.query.key_id);
    const scan = store.read((state) => getSubscription(state, req.params.id).upiScan ?? null);
    res.set("Cache-Control", "no-store").json(
      scan
        ? {
            scanned: true,
            payment_id: scan.paymentId,
            ...answerOf(scan.outcome, scan.paymentId, req.params.id),
          }
        : { scanned: false },
    );
  });

  router.get("/hosted/:id", (req, res) => {
    const page = store.read((state) => {
      const record = state.subscriptions[req.params.id];
      if (!record) return null;
      return hostedPage({
        root: req.baseUrl,
        subscription: record.entity,
        plan: getPlan(state, record.entity.plan_id),
        method: record.method,
        returnTo: typeof req.query.return === "string" ? req.query.return : null,
      });
    });
    res
      .status(page === null ? 404 : 200)
      .set("Content-Type", "text/html; charset=utf-8")
      .set("Cache-Control", "no-store")
      .send(page ?? notFoundPage(req.baseUrl));
  });

  router.post("/hosted/:id/authorise", (req, res) => {
    const input = parseBody(authoriseBody, req);
    const result = store.change((tx) => hostedAuthorise(tx, req.params.id, input));
    res.set("Cache-Control", "no-store").json(result);
  });

  return router;
}
