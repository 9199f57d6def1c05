import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSubmit } from "react-router";
import { z } from "zod";
import { billingProfileOf, saveBillingProfile } from "~/.server/billing/billing-profile.server";
import { startCheckout, verifyCheckout } from "~/.server/billing/checkout.server";
import { analyticsIdOf } from "~/.server/analytics/visitor-id.server";
import { startPlanSwitch } from "~/.server/billing/manage.server";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { liveSubscriptionsOf } from "~/.server/billing/subscriptions.server";
import { paidStartAfterTrial } from "~/.server/trials/trials.server";
import { formAction, refuse } from "~/.server/forms/action.server";
import { requireSession } from "~/.server/auth/session";
import { billingDefaults, BillingDetailsFields } from "~/components/billing/BillingDetailsFields";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { FormMessage, SubmitButton } from "~/components/forms";
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
import { type RazorpayHandlerResponse, loadCheckout } from "~/lib/razorpay-checkout";
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
  return {
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

export interface CheckoutOpen {
  subscriptionId: string;
  keyId: string;
  description: string;
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
      analytics_id: _analyticsId,
      ...details
    } = input;
    await saveBillingProfile(user.id, details);
    // The visitor's signed analytics id, only when the consent cookie says yes: the funnel counts
    // this payment for the visitor who viewed pricing.
    const cookies = args.request.headers.get("cookie") ?? "";
    const analyticsId = readConsent(cookies) === "granted" ? analyticsIdOf(cookies) : null;
    const subscription =
      switching === "1"
        ? (await startPlanSwitch(user, planId)).next
        : await startCheckout(user, planId, {
            analyticsClientId: analyticsId,
            afterTrial: start === "after-trial",
          });
    const plan = planById(planId);
    const firstCharge =
      subscription.startAt && subscription.startAt > new Date() ? subscription.startAt : null;
    return data({
      intent: "start",
      ok: true,
      message: "",
      open: {
        subscriptionId: subscription.providerSubscriptionId,
        keyId: paymentsConfig().keyId,
        description:
          firstCharge && switching !== "1"
            ? `${planLabel(plan)}: ${planPriceLabel(plan)}, GST included, first charge on ${formatDate(firstCharge.toISOString())}`
            : `${planLabel(plan)}: ${planPriceLabel(plan)}, GST included`,
        amountPaise: plan.pricePaise,
        planId,
      } satisfies CheckoutOpen,
    });
  });
}

type Phase = "form" | "opening" | "open" | "dismissed" | "failed" | "confirming";

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, switching, defaults, checkout, prefill, trialEndsAt } = loaderData;
  // During a trial: when the plan starts. Its end is the default, so no trial day is lost.
  const [start, setStart] = useState<"after-trial" | "now">("after-trial");
  const afterTrial = trialEndsAt !== null && start === "after-trial";
  const trialEnd = trialEndsAt ? formatDate(trialEndsAt) : "";
  const navigation = useNavigation();
  const submit = useSubmit();
  const busy = navigation.state !== "idle";
  const [phase, setPhase] = useState<Phase>("form");
  const [problem, setProblem] = useState<string | null>(null);
  const opened = useRef<unknown>(null);
  const open = actionData && "open" in actionData ? actionData.open : null;
  const errors = actionData && "errors" in actionData ? (actionData.errors ?? {}) : {};
  const refusal = actionData && !actionData.ok ? actionData.message : null;
  // The GST split follows the state (or GSTIN) as it is chosen: the invoice's own rule.
  const [place, setPlace] = useState(() => placeOfSupplyCode(defaults.gstin, defaults.stateCode));
  const gst =
    place === null
      ? null
      : splitInclusive(
          plan.pricePaise,
          site.pricing.gstRatePercent,
          place !== site.company.address.stateCode,
        );

  useEffect(() => {
    track("add_to_cart", planEvents.addToCart(plan.id));
  }, [plan.id]);

  const pay = async (details: CheckoutOpen) => {
    setPhase("opening");
    setProblem(null);
    try {
      const Razorpay = await loadCheckout(checkout.scriptUrl);
      const instance = new Razorpay({
        key: details.keyId,
        subscription_id: details.subscriptionId,
        name: site.product.name,
        description: details.description,
        prefill,
        notes: { plan_id: plan.id },
        theme: { color: "#22c55e" },
        handler: (response: RazorpayHandlerResponse) => {
          setPhase("confirming");
          void submit({ intent: "verify", ...response }, { method: "post" });
        },
        modal: { ondismiss: () => setPhase("dismissed") },
      });
      instance.on("payment.failed", () => setPhase("failed"));
      // A switch's authorisation is not a checkout: the funnel counts sales (issue 33, point 8).
      if (!switching)
        track("begin_checkout", planEvents.beginCheckout(details.planId, details.amountPaise));
      instance.open();
      setPhase("open");
    } catch (error) {
      setPhase("dismissed");
      setProblem(
        error instanceof Error ? error.message : "The payment window could not be opened.",
      );
    }
  };

  useEffect(() => {
    // Each successful "start" opens checkout once; a retry uses the same subscription.
    if (open && opened.current !== actionData) {
      opened.current = actionData;
      void pay(open);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

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
        <p className="mt-3 text-sm text-slate-300" data-testid="checkout-gst" aria-live="polite">
          {gst
            ? `${formatInr(plan.pricePaise)} is ${gstSplitText(gst)}, as your tax invoice will show it.`
            : "Choose your state below to see the GST split your tax invoice will show."}
        </p>
        <p className="mt-2 text-sm text-slate-300" data-testid="checkout-methods">
          {PAYMENT_METHODS_TEXT}
        </p>
        <p className="mt-3 text-sm text-slate-300" data-testid="checkout-terms" aria-live="polite">
          {afterTrial
            ? `Nothing is charged today. The first charge, ${formatInr(plan.pricePaise)}, is on ${trialEnd}, when your trial ends; then every ${plan.cycle === "yearly" ? "year" : "month"} until you cancel. Cancel before ${trialEnd} from Account → Subscription and nothing is charged at all.`
            : `Renews every ${plan.cycle === "yearly" ? "year" : "month"} at ${formatInr(plan.pricePaise)} until you cancel. Cancel any time from Account → Subscription.`}
        </p>
        {!switching ? (
          <p className="mt-2 text-sm">
            <Link
              className="link"
              to={`/checkout?plan=${plan.id === "pro-monthly" ? "pro-yearly" : "pro-monthly"}`}
            >
              {plan.id === "pro-monthly" ? "Pay yearly instead" : "Pay monthly instead"}
            </Link>
          </p>
        ) : null}
      </section>

      <div aria-live="polite" className="mb-4 space-y-2">
        {phase === "dismissed" ? (
          <FormMessage
            tone="error"
            message={problem ?? "Checkout was closed before paying. Nothing was charged."}
          />
        ) : null}
        {phase === "failed" ? (
          <FormMessage
            tone="error"
            message="The payment failed. Nothing was charged. Try again, or use another method."
          />
        ) : null}
        {phase === "confirming" || (busy && navigation.formData?.get("intent") === "verify") ? (
          <FormMessage tone="success" message="Payment received, confirming…" />
        ) : null}
        {refusal ? <FormMessage tone="error" message={refusal} /> : null}
      </div>

      {open && (phase === "dismissed" || phase === "failed") ? (
        <button type="button" className="btn-primary mb-8" onClick={() => void pay(open)}>
          Try again
        </button>
      ) : null}

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
                  detail: `${formatInr(plan.pricePaise)} is charged today, and the paid ${plan.cycle === "yearly" ? "year" : "month"} starts today, over the rest of your trial.`,
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
          pending={busy || phase === "opening"}
          label={
            switching
              ? `Authorise ${plan.label}`
              : afterTrial
                ? `Authorise ${plan.label}: first charge on ${trialEnd}`
                : `Continue to payment: ${plan.price}`
          }
          pendingLabel="Opening payment…"
          className="btn-primary mt-4 w-full sm:w-auto"
        />
      </Form>
    </div>
  );
}
