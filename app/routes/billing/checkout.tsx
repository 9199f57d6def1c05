import { useEffect, useState } from "react";
import { personBuyer } from "~/.server/billing/buyer";
import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { billingProfileOf } from "~/.server/billing/billing-profile.server";
import { checkoutPage } from "~/.server/billing/checkout-page.server";
import { verifyCheckout } from "~/.server/billing/checkout.server";
import { openCheckout } from "~/.server/billing/open-checkout.server";
import { analyticsIdOf } from "~/.server/analytics/visitor-id.server";
import { formAction, refuse } from "~/.server/forms/action.server";
import { requireSession } from "~/.server/auth/session";
import { billingDefaults, BillingDetailsFields } from "~/components/billing/BillingDetailsFields";
import { abroadDefaults, AbroadDetailsFields } from "~/components/billing/AbroadDetailsFields";
import { OrderSummary } from "~/components/billing/OrderSummary";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { CheckoutProgress } from "~/components/billing/CheckoutProgress";
import {
  type OpenSubscription,
  useRazorpayCheckout,
} from "~/components/billing/useRazorpayCheckout";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { useFormPending } from "~/components/use-form-pending";
import { site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { readConsent } from "~/lib/analytics/consent";
import { planEvents } from "~/lib/analytics/plan-events";
import { abroadDetailsSchema, billingDetailsSchema } from "~/lib/billing-details";
import { placeOfSupplyCode, splitInclusive } from "~/lib/gst-split";
import { formatDate } from "~/lib/dates";
import { FOREIGN_CURRENCIES, formatPrice, type Money } from "~/lib/money";
import { CurrencyElsewhere, CurrencyRefused } from "~/components/billing/CurrencyElsewhere";
import { PAID_PLAN_IDS, type PaidPlanId } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/checkout";

export const meta: Route.MetaFunction = () =>
  pageMeta("Checkout", "Subscribe to Pro, paid with Razorpay.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const page = await checkoutPage(user, request.url);
  if (page === "already-subscribed")
    throw redirect("/account/subscription?notice=already-subscribed");
  const profile = await billingProfileOf(user.id);
  return {
    ...page,
    defaults: billingDefaults(profile, user.name),
    abroad: abroadDefaults(profile, user.name),
  };
}

const orderSchema = z.object({
  intent: z.literal("start"),
  plan: z.enum(PAID_PLAN_IDS),
  switch: z.enum(["0", "1"]).default("0"),
  /** A switch to the same plan paid another way (issue 59, point 3). */
  change: z.literal("method").optional(),
  /** During a trial: start when it ends (the default the page offers) or at once. */
  start: z.enum(["after-trial", "now"]).default("now"),
  /** A coupon the page accepted; checked and reserved again by startCheckout. */
  coupon: z.string().trim().max(64).optional(),
  /** The browser's analytics id, sent only after consent: the funnel counts this payment. */
  /** Sent by pages from before issue 32, point 11; ignored (the id is our signed cookie's). */
  analytics_id: z.uuid().optional(),
});
/** In India: rupees, with the GST details; abroad (issue 56): a currency sold abroad, by card. */
const startSchema = z.intersection(
  orderSchema.extend({ currency: z.literal("INR").default("INR") }),
  billingDetailsSchema,
);
const startAbroadSchema = z.intersection(
  orderSchema.extend({ currency: z.enum(FOREIGN_CURRENCIES) }),
  abroadDetailsSchema,
);
const verifySchema = z.object({
  intent: z.literal("verify"),
  razorpay_payment_id: z.string().regex(/^pay_[A-Za-z0-9]{1,40}$/),
  razorpay_subscription_id: z.string().regex(/^sub_[A-Za-z0-9]{1,40}$/),
  razorpay_signature: z.string().regex(/^[0-9a-f]{64}$/),
});

export interface CheckoutOpen extends OpenSubscription {
  amount: Money;
  planId: PaidPlanId;
}

export async function action(args: Route.ActionArgs) {
  const form = await args.request.clone().formData();
  const intent = form.get("intent");
  if (intent === "verify") {
    return formAction(args, verifySchema, async (input, { user }) => {
      const verified = await verifyCheckout(personBuyer(user.id), input);
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
  // The form says which side of the border the buyer is on; each side has its own fields.
  const schema =
    form.get("currency") && form.get("currency") !== "INR" ? startAbroadSchema : startSchema;
  return formAction(args, schema, async (input, { user }) => {
    const {
      intent: _intent,
      plan: planId,
      switch: switching,
      change,
      start,
      coupon,
      currency,
      analytics_id: _analyticsId,
      ...details
    } = input;
    // The visitor's signed analytics id, only when the consent cookie says yes: the funnel counts
    // this payment for the visitor who viewed pricing.
    const cookies = args.request.headers.get("cookie") ?? "";
    const analyticsId = readConsent(cookies) === "granted" ? analyticsIdOf(cookies) : null;
    const { notice, open } = await openCheckout(user, {
      planId,
      switching,
      change,
      start,
      coupon,
      currency,
      details,
      analyticsId,
    });
    return data({
      intent: "start",
      ok: true,
      message: notice,
      open: open satisfies CheckoutOpen,
    });
  });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, switching, defaults, checkout, prefill, trialEndsAt, coupon } = loaderData;
  // Outside India (issue 56): a price in the buyer's currency, card only, no GST to split.
  const abroad = loaderData.currency !== "INR";
  // A coupon that applies to this plan for this buyer; its refusal is shown otherwise.
  const applied = coupon?.view.ok ? coupon : null;
  const first: Money = applied ? { amount: applied.view.pricePaise, currency: "INR" } : plan.list;
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
        // The catalogue counts in rupees: a cart abroad at the plan's rupee list price.
        track(
          "begin_checkout",
          planEvents.beginCheckout(
            details.planId,
            details.amount.currency === "INR" ? details.amount.amount : plan.pricePaise,
          ),
        );
    },
  });
  // The GST split follows the state (or GSTIN) as it is chosen: the invoice's own rule.
  const [place, setPlace] = useState(() => placeOfSupplyCode(defaults.gstin, defaults.stateCode));
  const gst =
    place === null || abroad
      ? null
      : splitInclusive(
          first.amount,
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
        planEvents.couponApply(plan.id, appliedCode, plan.pricePaise - first.amount),
      );
    // Once per code and plan shown.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [appliedCode, plan.id]);

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <PageHeader
        title={
          loaderData.changingMethod
            ? `Change how you pay for ${plan.label}`
            : loaderData.staying
              ? `Stay on ${plan.label} at the coupon's price`
              : switching
                ? `Switch to ${plan.label}`
                : `Subscribe to ${plan.label}`
        }
        lead={
          loaderData.changingMethod
            ? `Authorise a card or UPI AutoPay now: it pays from your next charge, and the current one is cancelled once this is done, so nothing is charged twice and Pro does not stop.${loaderData.couponEnds ? " The coupon on your current subscription does not carry over: the new method pays the full price." : ""}`
            : switching
              ? `The new ${loaderData.staying ? "price" : "plan"} starts when your current period ends; you authorise it now and are charged then.`
              : trialEndsAt
                ? `Your free trial runs until ${trialEnd}. Choose when ${plan.label} starts, then authorise it with Razorpay (${abroad ? "card" : "UPI AutoPay or card"}).`
                : abroad
                  ? `Your billing details, then payment by card with Razorpay, in ${loaderData.currencyName}.`
                  : "Your billing details, then payment with Razorpay (UPI AutoPay or card)."
        }
      >
        <div className="mt-4">
          <TestModeBadge show={checkout.testMode} />
        </div>
      </PageHeader>

      <CurrencyRefused words={loaderData.currencyRefused} />
      <OrderSummary
        plan={plan}
        coupon={coupon}
        switching={switching}
        applied={applied}
        first={first}
        gst={gst}
        afterTrial={afterTrial}
        trialEnd={trialEnd}
      />

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
        {loaderData.changingMethod ? <input type="hidden" name="change" value="method" /> : null}
        <input type="hidden" name="currency" value={loaderData.currency} />
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
                  detail: `${formatPrice(first)} is charged today, and the paid ${per} starts today, over the rest of your trial.`,
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
        {abroad ? (
          <AbroadDetailsFields defaults={loaderData.abroad} errors={errors} />
        ) : (
          <BillingDetailsFields defaults={defaults} errors={errors} />
        )}
        <CurrencyElsewhere plan={plan.id} others={loaderData.otherCurrencies} />
        <SubmitButton
          pending={paying || phase === "opening"}
          waiting={applying}
          label={
            switching
              ? `Authorise ${plan.label}`
              : afterTrial
                ? `Authorise ${plan.label}: first charge on ${trialEnd}`
                : applied
                  ? `Continue to payment: ${formatPrice(first)}`
                  : `Continue to payment: ${plan.price}`
          }
          pendingLabel="Opening payment…"
          className="btn-primary mt-4 w-full sm:w-auto"
        />
      </Form>
    </div>
  );
}
