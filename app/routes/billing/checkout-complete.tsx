import { useEffect, useState } from "react";
import { STATUS_RULES } from "~/lib/subscription-state";
import { stateOfRow } from "~/.server/billing/subscription-state.server";
import { data, Link, useRevalidator } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { paymentsOfSubscription } from "~/.server/billing/payments.server";
import { subscriptionByProviderId } from "~/.server/billing/subscriptions.server";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { findPlan, planLabel } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import { nextCharge } from "~/.server/billing/charge-amount.server";
import { appReturnFor } from "~/.server/desktop/app-return.server";
import { ReturnToApp } from "~/components/ReturnToApp";
import type { Route } from "./+types/checkout-complete";

export const meta: Route.MetaFunction = () =>
  pageMeta("Payment", "Your subscription is being set up.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const id = new URL(request.url).searchParams.get("subscription") ?? "";
  const subscription = /^sub_[A-Za-z0-9]{1,40}$/.test(id)
    ? await subscriptionByProviderId(id)
    : null;
  // Someone else's subscription id is answered exactly like an unknown one.
  if (!subscription || subscription.userId !== user.id)
    throw data({ message: "There is no checkout of yours with that id." }, { status: 404 });
  const plan = findPlan(subscription.planId);
  const firstPayment = (await paymentsOfSubscription(subscription.id)).find(
    (payment) => payment.status === "captured",
  );
  const ready = STATUS_RULES[subscription.status].goodStanding;
  return {
    ready,
    // Authorised to start later (a plan bought during a trial, issue 36): nothing is paid yet.
    startsLater: stateOfRow(subscription) === "authorised",
    status: subscription.status,
    switch: subscription.replacesSubscriptionId !== null,
    plan: {
      id: subscription.planId,
      label: planLabel(subscription.planId),
      name: plan?.name ?? subscription.planId,
      pricePaise: plan?.pricePaise ?? 0,
    },
    paymentId: firstPayment?.providerPaymentId ?? subscription.checkoutPaymentId,
    paid: firstPayment
      ? { amount: firstPayment.amountPaise, currency: subscription.currency }
      : null,
    // The catalogue counts revenue in rupees: a payment abroad by its INR value as settled.
    paidInrPaise: firstPayment?.inrValuePaise ?? null,
    nextChargeAt: subscription.chargeAt?.toISOString() ?? null,
    nextCharge: await nextCharge(subscription),
    // Opened from the app (issue 57, point 4): where it waits to hear that the purchase is done.
    appReturn: appReturnFor(request, {
      done: "purchase",
      subscription: subscription.providerSubscriptionId,
    }),
  };
}

/** How long the page waits for Razorpay's confirmation before saying it takes longer. */
const WAIT_MS = 60_000;

export default function CheckoutComplete({ loaderData }: Route.ComponentProps) {
  const { ready, plan, paymentId, paid, nextChargeAt, nextCharge } = loaderData;
  const revalidator = useRevalidator();
  const [waitedOut, setWaitedOut] = useState(false);

  useEffect(() => {
    if (ready) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > WAIT_MS) {
        setWaitedOut(true);
        clearInterval(timer);
      } else if (revalidator.state === "idle") void revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [ready, revalidator]);

  useEffect(() => {
    if (!ready || !paymentId) return;
    // One purchase event per payment, however often the page is reloaded.
    const key = `purchase-tracked:${paymentId}`;
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, "1");
    if (loaderData.switch) return;
    track(
      "purchase",
      planEvents.purchase(plan.id, paymentId, loaderData.paidInrPaise ?? plan.pricePaise),
    );
    track("subscription_start", planEvents.subscriptionStart(plan.id));
  }, [ready, paymentId, loaderData.paidInrPaise, plan, loaderData.switch]);

  if (ready) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
        <PageHeader
          title={loaderData.switch ? "Plan change scheduled" : `Welcome to ${plan.name}`}
          lead={
            loaderData.switch
              ? `${plan.label} starts on ${nextChargeAt ? formatDate(nextChargeAt) : "the end of your current period"}.`
              : loaderData.startsLater
                ? `Your ${plan.label} subscription is authorised: it starts on ${nextChargeAt ? formatDate(nextChargeAt) : "the day your trial ends"}, with its first charge of ${formatPrice(nextCharge)}. Nothing is charged before, and your trial runs until then.`
                : `Your ${plan.label} subscription is active.`
          }
        />
        {paid !== null ? (
          <p className="text-slate-200">{`We received ${formatPrice(paid)} (payment ${paymentId}). A receipt is on its way by email.`}</p>
        ) : null}
        {nextChargeAt && !loaderData.switch && !loaderData.startsLater ? (
          <p className="mt-2 text-slate-300">{`Next charge: ${formatPrice(nextCharge)} on ${formatDate(nextChargeAt)}.`}</p>
        ) : null}
        <div className="mt-8 flex flex-wrap gap-3">
          <ReturnToApp href={loaderData.appReturn} />
          <Link
            to="/account/subscription"
            className={loaderData.appReturn ? "btn-secondary" : "btn-primary"}
          >
            View subscription
          </Link>
          <Link to="/download" className="btn-secondary">
            Download the app
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
      <PageHeader
        title="Payment received, activating…"
        lead="Razorpay is confirming your subscription. This usually takes a few seconds."
      />
      <div aria-live="polite">
        {waitedOut ? (
          <FormMessage
            tone="error"
            message="This is taking longer than usual. You will get an email as soon as it is done; if you were charged and nothing changes within an hour, open Fix subscription."
          />
        ) : (
          <p role="status" className="text-slate-300">
            Checking…
          </p>
        )}
      </div>
      <p className="mt-6">
        <Link to="/fix-subscription" className="link">
          Fix subscription
        </Link>
      </p>
    </div>
  );
}
