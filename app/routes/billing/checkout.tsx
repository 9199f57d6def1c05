import { useEffect, useState } from "react";
import { data, Form, Link, redirect } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { z } from "zod";
import { billingProfileOf, saveBillingProfile } from "~/.server/billing/billing-profile.server";
import { type CheckoutRow, startCheckout, verifyCheckout } from "~/.server/billing/checkout.server";
import { analyticsIdOf } from "~/.server/analytics/visitor-id.server";
import { startPlanSwitch } from "~/.server/billing/manage.server";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { liveSubscriptionsOf } from "~/.server/billing/subscriptions.server";
import { paidStartAfterTrial } from "~/.server/trials/trials.server";
import { couponView } from "~/.server/coupons/pricing-view.server";
import { nextChargePaise } from "~/.server/billing/charge-amount.server";
import { CouponPrice, couponPriceText } from "~/components/billing/CouponPrice";
import { formAction, refuse } from "~/.server/forms/action.server";
import { requireSession } from "~/.server/auth/session";
import { billingDefaults, BillingDetailsFields } from "~/components/billing/BillingDetailsFields";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { CheckoutProgress } from "~/components/billing/CheckoutProgress";
import {
  type OpenSubscription,
  useRazorpayCheckout,
} from "~/components/billing/useRazorpayCheckout";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { PAYMENT_METHODS_TEXT } from "~/config/pricing";
import { site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { readConsent } from "~/lib/analytics/consent";
import { planEvents } from "~/lib/analytics/plan-events";
import { billingDetailsSchema } from "~/lib/billing-details";
import { gstSplitText, placeOfSupplyCode, splitInclusive } from "~/lib/gst-split";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import {
  isPaidPlanId,
  PAID_PLAN_IDS,
  type PaidPlanId,
  planById,
  planLabel,
  planPriceLabel,
} from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/checkout";

export const meta: Route.MetaFunction = () =>
  pageMeta("Checkout", "Subscribe to Pro, paid with Razorpay.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const url = new URL(request.url);
  const requested = url.searchParams.get("plan");
  const planId = isPaidPlanId(requested) ? requested : "pro-monthly";
  const switching = url.searchParams.get("switch") === "1";
  const live = await liveSubscriptionsOf(user.id);
  if (!switching && live.some((row) => row.status !== "halted"))
    throw redirect("/account/subscription?notice=already-subscribed");
  const plan = planById(planId);
  const payments = paymentsConfig();
  // During a free trial the plan can start when the trial ends (issue 36, point 4).
  const trialEnd = switching ? null : await paidStartAfterTrial(user.id);
  // A coupon (issue 36, point 7): every rule, this buyer's included; never on a plan switch.
  const code = switching ? "" : (url.searchParams.get("coupon")?.slice(0, 64).trim() ?? "");
  const couponFor = code ? await couponView(code, user) : null;
  const couponPlan = couponFor ? couponFor.plans[planId] : null;
  return {
    coupon:
      couponFor && couponPlan
        ? { code: couponFor.code, method: couponFor.method, view: couponPlan }
        : null,
    trialEndsAt: trialEnd?.toISOString() ?? null,
    plan: {
      id: plan.id,
      label: planLabel(plan),
      price: planPriceLabel(plan),
      pricePaise: plan.pricePaise,
      cycle: plan.billingCycle,
    },
    switching,
    defaults: billingDefaults(await billingProfileOf(user.id), user.name),
    checkout: {
      keyId: payments.keyId,
      scriptUrl: payments.checkoutScriptUrl,
      testMode: payments.testMode,
    },
    prefill: { name: user.name, email: user.email },
  };
}

const startSchema = z.intersection(
  z.object({
    intent: z.literal("start"),
    plan: z.enum(PAID_PLAN_IDS),
    switch: z.enum(["0", "1"]).default("0"),
    /** During a trial: start when it ends (the default the page offers) or at once. */
    start: z.enum(["after-trial", "now"]).default("now"),
    /** A coupon the page accepted; checked and reserved again by startCheckout. */
    coupon: z.string().trim().max(64).optional(),
    /** The browser's analytics id, sent only after consent: the funnel counts this payment. */
    /** Sent by pages from before issue 32, point 11; ignored (the id is our signed cookie's). */
    analytics_id: z.uuid().optional(),
  }),
  billingDetailsSchema,
);
const verifySchema = z.object({
  intent: z.literal("verify"),
  razorpay_payment_id: z.string().regex(/^pay_[A-Za-z0-9]{1,40}$/),
  razorpay_subscription_id: z.string().regex(/^sub_[A-Za-z0-9]{1,40}$/),
  razorpay_signature: z.string().regex(/^[0-9a-f]{64}$/),
});

export interface CheckoutOpen extends OpenSubscription {
  amountPaise: number;
  planId: PaidPlanId;
}

export async function action(args: Route.ActionArgs) {
  const intent = (await args.request.clone().formData()).get("intent");
  if (intent === "verify") {
    return formAction(args, verifySchema, async (input, { user }) => {
      const verified = await verifyCheckout(user.id, input);
      if (!verified)
        return refuse(
          "verify",
          "We could not confirm that payment. If money left your account it will show here within minutes; otherwise try again.",
        );
      throw redirect(
        `/checkout/complete?subscription=${encodeURIComponent(verified.providerSubscriptionId)}`,
      );
    });
  }
  return formAction(args, startSchema, async (input, { user }) => {
    const {
      intent: _intent,
      plan: planId,
      switch: switching,
      start,
      coupon,
      analytics_id: _analyticsId,
      ...details
    } = input;
    await saveBillingProfile(user.id, details);
    // The visitor's signed analytics id, only when the consent cookie says yes: the funnel counts
    // this payment for the visitor who viewed pricing.
    const cookies = args.request.headers.get("cookie") ?? "";
    const analyticsId = readConsent(cookies) === "granted" ? analyticsIdOf(cookies) : null;
    const subscription: CheckoutRow =
      switching === "1"
        ? (await startPlanSwitch(user, planId)).next
        : await startCheckout(user, planId, {
            analyticsClientId: analyticsId,
            afterTrial: start === "after-trial",
            couponCode: coupon || null,
          });
    const plan = planById(planId);
    // What the first charge comes to (the coupon's price when the subscription has one): the
    // same answer as every "next charge" on the site.
    const firstPaise = await nextChargePaise(subscription);
    const firstCharge =
      subscription.startAt && subscription.startAt > new Date() ? subscription.startAt : null;
    return data({
      intent: "start",
      ok: true,
      // Said when the coupon of a reused checkout no longer applies (it is then at full price).
      message: subscription.couponNotice ?? "",
      open: {
        subscriptionId: subscription.providerSubscriptionId,
        keyId: paymentsConfig().keyId,
        description: [
          `${planLabel(plan)}: ${planPriceLabel(plan)}, GST included`,
          subscription.couponId ? `first payment ${formatInr(firstPaise)} with ${coupon}` : null,
          firstCharge && switching !== "1"
            ? `first charge on ${formatDate(firstCharge.toISOString())}`
            : null,
        ]
          .filter(Boolean)
          .join(", "),
        amountPaise: firstPaise,
        planId,
      } satisfies CheckoutOpen,
    });
  });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, switching, defaults, checkout, prefill, trialEndsAt, coupon } = loaderData;
  // A coupon that applies to this plan for this buyer; its refusal is shown otherwise.
  const applied = coupon?.view.ok ? coupon : null;
  const firstPaise = applied ? applied.view.pricePaise : plan.pricePaise;
  const per = plan.cycle === "yearly" ? "year" : "month";
  // During a trial: when the plan starts. Its end is the default, so no trial day is lost.
  const [start, setStart] = useState<"after-trial" | "now">("after-trial");
  const afterTrial = trialEndsAt !== null && start === "after-trial";
  const trialEnd = trialEndsAt ? formatDate(trialEndsAt) : "";
  const paying = useFormPending({ intent: "start" });
  const confirming = useFormPending({ intent: "verify" });
  // The coupon form (GET) redraws the price the payment form sends: wait for it.
  const applying = useFormPending({ method: "get" });
  const open = actionData && "open" in actionData ? actionData.open : null;
  const errors = actionData && "errors" in actionData ? (actionData.errors ?? {}) : {};
  // A refusal, or why an opened checkout is not at the price the page showed.
  const refusal = actionData?.message ? actionData.message : null;
  const { phase, problem, pay } = useRazorpayCheckout({
    scriptUrl: checkout.scriptUrl,
    prefill,
    notes: { plan_id: plan.id },
    open,
    answer: actionData,
    // A switch's authorisation is not a checkout: the funnel counts sales (issue 33, point 8).
    onOpened: (details) => {
      if (!switching)
        track("begin_checkout", planEvents.beginCheckout(details.planId, details.amountPaise));
    },
  });
  // The GST split follows the state (or GSTIN) as it is chosen: the invoice's own rule.
  const [place, setPlace] = useState(() => placeOfSupplyCode(defaults.gstin, defaults.stateCode));
  const gst =
    place === null
      ? null
      : splitInclusive(
          firstPaise,
          site.pricing.gstRatePercent,
          place !== site.company.address.stateCode,
        );

  useEffect(() => {
    track("add_to_cart", planEvents.addToCart(plan.id));
  }, [plan.id]);

  const appliedCode = applied?.code ?? null;
  useEffect(() => {
    if (appliedCode)
      track(
        "coupon_apply",
        planEvents.couponApply(plan.id, appliedCode, plan.pricePaise - firstPaise),
      );
    // Once per code and plan shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [appliedCode, plan.id]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <PageHeader
        title={switching ? `Switch to ${plan.label}` : `Subscribe to ${plan.label}`}
        lead={
          switching
            ? "The new plan starts when your current period ends; you authorise it now and are charged then."
            : trialEndsAt
              ? `Your free trial runs until ${trialEnd}. Choose when ${plan.label} starts, then authorise it with Razorpay (UPI AutoPay or card).`
              : "Your billing details, then payment with Razorpay (UPI AutoPay or card)."
        }
      >
        <div className="mt-4">
          <TestModeBadge show={checkout.testMode} />
        </div>
      </PageHeader>

      <section
        aria-labelledby="order"
        className="mb-8 rounded-xl border border-slate-800 bg-slate-900 p-6"
      >
        <h2 id="order" className="text-lg font-semibold text-white">
          Order
        </h2>
        <dl className="mt-3 grid gap-3 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-slate-300">Plan</dt>
            <dd className="font-medium text-white">{plan.label}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-300">Price</dt>
            <dd className="font-medium text-white" data-testid="checkout-price">
              {plan.price}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-300">GST</dt>
            <dd className="font-medium text-white">{`${site.pricing.gstRatePercent}% included`}</dd>
          </div>
        </dl>
        {coupon ? (
          <CouponPrice
            code={coupon.code}
            method={coupon.method}
            view={coupon.view}
            cycle={plan.cycle ?? "monthly"}
          />
        ) : null}
        <p className="mt-3 text-sm text-slate-300" data-testid="checkout-gst" aria-live="polite">
          {gst
            ? `${formatInr(firstPaise)} is ${gstSplitText(gst)}, as your tax invoice will show it${applied ? " (the discount comes off before GST)" : ""}.`
            : "Choose your state below to see the GST split your tax invoice will show."}
        </p>
        <p className="mt-2 text-sm text-slate-300" data-testid="checkout-methods">
          {PAYMENT_METHODS_TEXT}
        </p>
        <p className="mt-3 text-sm text-slate-300" data-testid="checkout-terms" aria-live="polite">
          {afterTrial
            ? `Nothing is charged today. The first charge, ${formatInr(firstPaise)}, is on ${trialEnd}, when your trial ends; then every ${per} until you cancel${applied ? ` (${couponPriceText(applied.view, plan.cycle ?? "monthly")})` : ""}. Cancel before ${trialEnd} from Account → Subscription and nothing is charged at all.`
            : applied
              ? `${couponPriceText(applied.view, plan.cycle ?? "monthly")}, until you cancel. Cancel any time from Account → Subscription.`
              : `Renews every ${per} at ${formatInr(plan.pricePaise)} until you cancel. Cancel any time from Account → Subscription.`}
        </p>
        {!switching ? (
          <p className="mt-2 text-sm">
            <Link
              className="link"
              to={`/checkout?plan=${plan.id === "pro-monthly" ? "pro-yearly" : "pro-monthly"}${coupon ? `&coupon=${encodeURIComponent(coupon.code)}` : ""}`}
            >
              {plan.id === "pro-monthly" ? "Pay yearly instead" : "Pay monthly instead"}
            </Link>
          </p>
        ) : null}
        {!switching ? <CouponField planId={plan.id} code={coupon?.code ?? null} /> : null}
      </section>

      <CheckoutProgress
        phase={phase}
        problem={problem}
        confirming={confirming}
        refusal={refusal}
        open={open}
        onRetry={(details) => void pay(details)}
      />

      <Form
        method="post"
        noValidate
        className="rounded-xl border border-slate-800 bg-slate-900 p-6"
        onChange={(event) => {
          const fields = new FormData(event.currentTarget);
          setPlace(
            placeOfSupplyCode(
              String(fields.get("gstin") ?? ""),
              String(fields.get("stateCode") ?? ""),
            ),
          );
        }}
      >
        <h2 className="mb-4 text-lg font-semibold text-white">Billing details</h2>
        <input type="hidden" name="intent" value="start" />
        <input type="hidden" name="plan" value={plan.id} />
        <input type="hidden" name="switch" value={switching ? "1" : "0"} />
        {applied ? <input type="hidden" name="coupon" value={applied.code} /> : null}
        {trialEndsAt ? (
          <fieldset className="mb-6">
            <legend className="mb-2 font-medium text-white">{`When ${plan.label} starts`}</legend>
            {(
              [
                {
                  value: "after-trial",
                  label: `When my trial ends, on ${trialEnd}`,
                  detail: `Authorise now; the first charge is on ${trialEnd}. You keep every trial day.`,
                },
                {
                  value: "now",
                  label: "Now",
                  detail: `${formatInr(firstPaise)} is charged today, and the paid ${per} starts today, over the rest of your trial.`,
                },
              ] as const
            ).map((choice) => (
              <label key={choice.value} className="flex items-start gap-3 py-1.5 text-slate-200">
                <input
                  type="radio"
                  name="start"
                  value={choice.value}
                  checked={start === choice.value}
                  onChange={() => setStart(choice.value)}
                  className="mt-1"
                />
                <span>
                  {choice.label}
                  <span className="block text-sm text-slate-300">{choice.detail}</span>
                </span>
              </label>
            ))}
          </fieldset>
        ) : null}
        <BillingDetailsFields defaults={defaults} errors={errors} />
        <SubmitButton
          pending={paying || phase === "opening"}
          waiting={applying}
          label={
            switching
              ? `Authorise ${plan.label}`
              : afterTrial
                ? `Authorise ${plan.label}: first charge on ${trialEnd}`
                : applied
                  ? `Continue to payment: ${formatInr(firstPaise)}`
                  : `Continue to payment: ${plan.price}`
          }
          pendingLabel="Opening payment…"
          className="btn-primary mt-4 w-full sm:w-auto"
        />
      </Form>
    </div>
  );
}

/**
 * The coupon field, out of the way: a plain GET form back to this page with `?coupon=`, so it
 * works without scripts and the server checks the code with every rule before anything is paid.
 */
function CouponField({ planId, code }: { planId: string; code: string | null }) {
  return (
    <details className="mt-3 text-sm" open={code !== null}>
      <summary className="cursor-pointer text-slate-300">Have a coupon code?</summary>
      <Form method="get" className="mt-2 flex flex-wrap items-end gap-2">
        <input type="hidden" name="plan" value={planId} />
        <label className="block">
          <span className="block text-slate-300">Coupon code</span>
          <input
            name="coupon"
            defaultValue={code ?? ""}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            className="mt-1 w-48 rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono uppercase text-slate-100"
          />
        </label>
        <button type="submit" className="btn-secondary">
          Apply
        </button>
        {code ? (
          <Link className="link self-center" to={`/checkout?plan=${planId}`}>
            Remove the coupon
          </Link>
        ) : null}
      </Form>
    </details>
  );
}
