import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { accountState } from "~/.server/account/account-state.server";
import { requireSession } from "~/.server/auth/session";
import { decideEntitlement } from "~/.server/billing/entitlement.server";
import {
  cancelAtPeriodEnd,
  pauseSubscription,
  resumeSubscription,
  undoCancellation,
  withdrawSwitch,
} from "~/.server/billing/manage.server";
import { pauseResumeRefusal } from "~/.server/billing/pause-limit.server";
import { renewalOf } from "~/.server/billing/renewal.server";
import { refundKey } from "~/.server/billing/refunds.server";
import { requestSelfRefund, selfRefundOffer } from "~/.server/billing/self-refund.server";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { startTrial, TRIAL_REFUSALS, trialState } from "~/.server/trials/trials.server";
import { analyticsIdOf } from "~/.server/analytics/visitor-id.server";
import { readConsent } from "~/lib/analytics/consent";
import { SelfRefund } from "~/components/billing/SelfRefund";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Card } from "~/components/Section";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { formatDate } from "~/lib/dates";
import { gstSplitText } from "~/lib/gst-split";
import { formatInr } from "~/lib/money";
import { findPlan, planLabel, planPriceLabel, switchTarget } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import { trialCountdown, trialDaysLeft, trialEndedWords } from "~/lib/trials";
import { newTicketUrl } from "~/lib/support";
import { proSourceText } from "~/lib/pro-source";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscription", "Your plan, its next charge, and how to change or cancel it.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const state = await accountState(context);
  const now = new Date();
  const entitlement = decideEntitlement(state, now);
  const { overview, renewal } = await renewalOf(user.id, entitlement, { now });
  const devicesInUse = state.activeDevices;
  const sub = overview.subscription;
  const current = sub ? findPlan(sub.planId) : undefined;
  const target = current ? switchTarget(current) : undefined;
  // The plan the customer is on today: a scheduled switch's plan gives the same Pro, but it is
  // not the current plan until its day (issue 34).
  const onSubscription =
    sub && current && entitlement.plan !== "free" && ["active", "pending"].includes(sub.status);
  const url = new URL(request.url);
  const offer = sub?.status === "active" ? await selfRefundOffer(user.id, { now }) : null;
  const trial = await trialState(user, { now });
  // Pro from the trial itself (not from a subscription bought meanwhile).
  const onTrial = trial.kind === "running" && !onSubscription;
  return {
    trial:
      trial.kind === "running"
        ? {
            kind: "running" as const,
            countdown: trialCountdown(trial.trial.endsAt, now),
            endsAt: trial.trial.endsAt.toISOString(),
          }
        : trial.kind === "eligible"
          ? { kind: "eligible" as const, days: trial.days }
          : trial.reason === "had-trial" || trial.reason === "mailbox-had-trial"
            ? {
                kind: "refused" as const,
                message:
                  trial.reason === "had-trial" && trial.trial
                    ? trialEndedWords(trial.trial.endsAt, trial.trial.endReason)
                    : TRIAL_REFUSALS[trial.reason],
              }
            : null,
    refund: {
      offer,
      /** The confirmation step: what the refund does, and the one button that does it. */
      review: offer !== null && url.searchParams.get("refund") === "review",
      windowDays: REFUND_WINDOW_DAYS,
    },
    plan: {
      id: onSubscription ? current.id : entitlement.plan,
      name: onTrial ? "Pro (free trial)" : planLabel(onSubscription ? current : entitlement.plan),
      features: entitlement.features,
      deviceLimit: entitlement.device_limit,
      until: entitlement.expires_at,
    },
    devicesInUse,
    overview,
    renewal,
    // Nobody holding Pro (a team's seat, a grant, a paused plan's paid time) is offered Pro or a
    // trial; a seat says whose it is.
    holdsPro: entitlement.plan !== "free",
    proFrom: { text: proSourceText(entitlement), teamId: entitlement.team?.id ?? null },
    switchOption: target
      ? {
          id: target.id,
          label: planLabel(target),
          price: planPriceLabel(target),
        }
      : null,
    testMode: paymentsConfig().testMode,
    notice: url.searchParams.get("notice"),
  };
}

const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("cancel"),
    reason: z.string().trim().max(500, { error: "Use at most 500 characters." }).default(""),
  }),
  z.object({ intent: z.literal("undo-cancel") }),
  z.object({ intent: z.literal("pause") }),
  z.object({ intent: z.literal("resume") }),
  z.object({
    intent: z.literal("request-refund"),
    paymentId: z.string().regex(/^pay_\w{1,40}$/),
    key: refundKey,
  }),
  z.object({ intent: z.literal("withdraw-switch") }),
  z.object({ intent: z.literal("start-trial") }),
]);

export async function action(args: Route.ActionArgs) {
  return formAction(args, schema, async (input, { user }) => {
    if (input.intent === "start-trial") {
      // The browser's signed analytics id, only with consent: its trial_end is recorded then.
      const cookies = args.request.headers.get("cookie") ?? "";
      const started = await startTrial(user, "site", {
        analyticsClientId: readConsent(cookies) === "granted" ? analyticsIdOf(cookies) : null,
      });
      if (!started.ok) return refuse("start-trial", TRIAL_REFUSALS[started.reason], 409);
      return done(
        "start-trial",
        `Your Pro trial is on until ${formatDate(started.trial.endsAt.toISOString())}. Nothing is charged; after that day your account is on Free again unless you choose a plan.`,
      );
    }
    if (input.intent === "cancel") {
      const row = await cancelAtPeriodEnd(user.id, input.reason || null);
      return done(
        "cancel",
        row.currentEnd && row.cancelAtCycleEnd
          ? `Cancelled. You keep Pro until ${formatDate(row.currentEnd.toISOString())}; nothing more will be charged.`
          : "Cancelled. Nothing more will be charged.",
      );
    }
    if (input.intent === "pause" || input.intent === "resume") {
      // Each press asks Razorpay: counted per account before it does.
      const refusal = await pauseResumeRefusal(user.id);
      if (refusal) return refuse(input.intent, refusal, 429);
    }
    if (input.intent === "pause") {
      const row = await pauseSubscription(user.id);
      return done(
        "pause",
        row.currentEnd && row.currentEnd > new Date()
          ? `Paused: nothing more is charged. You keep Pro until ${formatDate(row.currentEnd.toISOString())}; resume here whenever you like.`
          : "Paused: nothing more is charged. Resume here whenever you like.",
      );
    }
    if (input.intent === "resume") {
      const row = await resumeSubscription(user.id);
      return done(
        "resume",
        row.chargeAt
          ? `Resumed: your subscription runs again, and the next charge is on ${formatDate(row.chargeAt.toISOString())}.`
          : "Resumed: your subscription runs again.",
      );
    }
    if (input.intent === "request-refund") {
      const { amountPaise } = await requestSelfRefund(user, input);
      // Twice (a double submit) is one request: the same answer both times.
      return done(
        "request-refund",
        `Refund requested: ${formatInr(amountPaise)} goes back to where you paid from, and Pro ends now. A mail with the credit note and the refund reference follows; Invoices shows where it stands.`,
      );
    }
    if (input.intent === "withdraw-switch") {
      const { current, withdrawn } = await withdrawSwitch(user.id);
      return done(
        "withdraw-switch",
        withdrawn
          ? `You stay on ${planLabel(current.planId)}; the switch to ${planLabel(withdrawn.planId)} is withdrawn.`
          : "There is no plan change scheduled; your plan stays as it is.",
      );
    }
    await undoCancellation(user.id);
    return done("undo-cancel", "Your subscription continues; it renews as before.");
  });
}

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-300">{term}</dt>
      <dd className="mt-1 font-semibold text-white">{children}</dd>
    </div>
  );
}

export default function SubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const {
    plan,
    devicesInUse,
    overview,
    renewal,
    refund,
    switchOption,
    testMode,
    notice,
    trial,
    holdsPro,
    proFrom,
  } = loaderData;
  const sub = overview.subscription;
  const switchTo = overview.switchTo;
  const busy = useNavigation().state !== "idle";
  const devices = (count: number) => `${count} ${count === 1 ? "device" : "devices"}`;
  // Sent once per start the action confirmed (not on a refusal), with analytics consent only.
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (actionData?.intent !== "start-trial" || !actionData.ok) return;
    if (trial?.kind !== "running" || reported.current === actionData) return;
    reported.current = actionData;
    track("trial_start", planEvents.trialStart("pro-monthly", trialDaysLeft(trial.endsAt)));
  }, [actionData, trial]);
  const running = sub && ["active", "pending", "authenticated"].includes(sub.status);
  // A plan bought during the trial to start at its end (issue 36, point 4): authorised, waiting.
  const startsAfterTrial =
    trial?.kind === "running" && sub?.status === "authenticated" && !switchTo && !!renewal?.next;

  return (
    <div className="space-y-6">
      <PageHeader title="Subscription" lead="Your plan, what it includes and what happens next.">
        <div className="mt-3">
          <TestModeBadge show={testMode && sub !== null} />
        </div>
      </PageHeader>
      {notice === "already-subscribed" ? (
        <FormMessage tone="success" message="You already have a subscription: manage it here." />
      ) : null}
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}

      {trial?.kind === "running" && (!running || startsAfterTrial) ? (
        <Card id="trial" title="Your free Pro trial">
          <p className="mt-3 text-lg text-slate-100" data-testid="trial-countdown">
            {trial.countdown}
          </p>
          <p className="mt-2 text-sm text-slate-300" data-testid="trial-next">
            {startsAfterTrial && sub
              ? `${sub.plan} starts when it ends: the first charge, ${formatInr(renewal?.next?.amountPaise ?? 0)}, is on ${formatDate(trial.endsAt)}, and nothing is charged before. To not start it, cancel it below before then.`
              : `Nothing will be charged: we never asked for a card. After ${formatDate(trial.endsAt)} your account moves to Free (one device) by itself, unless you choose a plan. A plan chosen now can start when the trial ends, or at once.`}
          </p>
        </Card>
      ) : null}

      <Card id="current-plan" title="Current plan">
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          <Detail term="Plan">
            <span data-testid="current-plan">{plan.name}</span>
          </Detail>
          <Detail term="Device limit">{devices(plan.deviceLimit)}</Detail>
          <Detail term="Devices in use">{`${devicesInUse} of ${plan.deviceLimit}`}</Detail>
        </dl>
        {proFrom.text && proFrom.teamId ? (
          <p className="mt-4 text-slate-200" data-testid="pro-source">
            {proFrom.text}{" "}
            <Link to={`/account/team/${proFrom.teamId}`} className="link">
              See the team
            </Link>
          </p>
        ) : null}
        <h3 className="mt-6 text-sm font-medium text-slate-300">Included</h3>
        <ul className="mt-2 list-inside list-disc text-slate-200">
          {plan.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-slate-300">
          Sign out a device you no longer use on the{" "}
          <Link to="/account/security" className="link">
            Security
          </Link>{" "}
          page.
        </p>
      </Card>

      {sub ? (
        <Card id="billing-heading" title={sub.plan}>
          {renewal ? (
            <p className="mt-3 text-lg text-slate-100" data-testid="renewal-sentence">
              {renewal.sentence}
            </p>
          ) : null}
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            <Detail term="Status">
              <span data-testid="subscription-status">
                {sub.activating ? "Payment received, activating…" : sub.statusText}
              </span>
            </Detail>
            {renewal?.next ? (
              <Detail term="Next charge">
                <span data-testid="next-charge" className="block">
                  {switchTo
                    ? `${formatInr(renewal.next.amountPaise)} on ${formatDate(renewal.next.at)}, for ${renewal.next.plan}`
                    : `${formatInr(renewal.next.amountPaise)} on ${formatDate(renewal.next.at)}`}
                </span>
                <span
                  data-testid="next-charge-gst"
                  className="mt-1 block text-sm font-normal text-slate-300"
                >
                  {`${gstSplitText(renewal.next.tax)}, as your invoice will show it`}
                </span>
              </Detail>
            ) : sub.cancelAtCycleEnd && sub.currentEnd ? (
              <Detail term="Pro until">
                <span data-testid="ends-on">{formatDate(sub.currentEnd)}</span>
              </Detail>
            ) : null}
            {sub.coupon ? (
              <Detail term="Coupon">
                <span data-testid="subscription-coupon">{sub.coupon}</span>
              </Detail>
            ) : null}
            <Detail term="Payment method">
              <span data-testid="payment-method">
                {sub.paymentMethod ??
                  "Not known yet: it appears once Razorpay confirms the first payment."}
              </span>
            </Detail>
          </dl>
          {renewal?.ifChargeFails ? (
            <p className="mt-4 text-sm text-slate-300" data-testid="if-charge-fails">
              {renewal.ifChargeFails}
            </p>
          ) : null}

          <div className="mt-6 flex flex-wrap items-start gap-3">
            {renewal?.fix ? (
              <Link to={renewal.fix.to} className="btn-primary">
                {renewal.fix.label}
              </Link>
            ) : null}
            <Link to="/billing" className="btn-secondary">
              Billing details and payment method
            </Link>
            <Link to="/invoices" className="btn-secondary">
              Invoices
            </Link>
          </div>

          {running &&
          !sub.cancelAtCycleEnd &&
          switchOption &&
          !overview.switchTo &&
          sub.status === "active" ? (
            <div className="mt-8 border-t border-slate-800 pt-6">
              <h3 className="font-semibold text-white">{`Switch to ${switchOption.label}`}</h3>
              <p className="mt-1 text-sm text-slate-300">
                {`${switchOption.price}. Starts when this period ends${sub.currentEnd ? ` (${formatDate(sub.currentEnd)})` : ""}; you are not charged twice for the same days.`}
              </p>
              <Link
                to={`/checkout?plan=${switchOption.id}&switch=1`}
                className="btn-secondary mt-3"
                onClick={() =>
                  track(
                    "subscription_upgrade",
                    planEvents.subscriptionUpgrade(sub.planId, switchOption.id),
                  )
                }
              >
                {`Switch to ${switchOption.label}`}
              </Link>
            </div>
          ) : null}

          {running && switchTo ? (
            <div className="mt-8 border-t border-slate-800 pt-6" data-testid="scheduled-switch">
              <h3 className="font-semibold text-white">{`Your switch to ${switchTo.plan}`}</h3>
              <p className="mt-1 text-sm text-slate-300">
                {`${sub.plan} runs until ${switchTo.startsAt ? formatDate(switchTo.startsAt) : "the end of this period"}; then ${switchTo.plan} starts at ${formatInr(switchTo.pricePaise)}. Nothing to do to keep it; you can still change your mind until then.`}
              </p>
              <div className="mt-3 flex flex-wrap gap-3">
                <Form method="post">
                  <input type="hidden" name="intent" value="withdraw-switch" />
                  <button type="submit" className="btn-secondary" disabled={busy}>
                    {`Stay on ${sub.plan}`}
                  </button>
                </Form>
              </div>
            </div>
          ) : null}

          {sub.status === "active" ? <SelfRefund refund={refund} busy={busy} /> : null}

          {sub.status === "paused" && !sub.pausedInUpiApp ? (
            <Form method="post" className="mt-8 border-t border-slate-800 pt-6">
              <h3 className="font-semibold text-white">Resume</h3>
              <p className="mt-1 text-sm text-slate-300">
                The next charge is at the end of the period already paid, or at once if it has
                ended.
              </p>
              <input type="hidden" name="intent" value="resume" />
              <button type="submit" className="btn-primary mt-3" disabled={busy}>
                Resume subscription
              </button>
            </Form>
          ) : null}

          {sub.status === "active" && !sub.cancelAtCycleEnd && !switchTo ? (
            <Form method="post" className="mt-8 border-t border-slate-800 pt-6">
              <h3 className="font-semibold text-white">Pause instead of cancelling?</h3>
              <p className="mt-1 text-sm text-slate-300">
                {`Nothing is charged while it is paused. You keep Pro until ${sub.currentEnd ? formatDate(sub.currentEnd) : "the end of the period already paid"}, then the account is on Free until you resume, here, whenever you like.`}
              </p>
              <input type="hidden" name="intent" value="pause" />
              <button type="submit" className="btn-secondary mt-3" disabled={busy}>
                Pause subscription
              </button>
            </Form>
          ) : null}

          {(running || sub.status === "paused") && (!sub.cancelAtCycleEnd || switchTo) ? (
            <Form
              method="post"
              className="mt-8 border-t border-slate-800 pt-6"
              onSubmit={() =>
                track("subscription_cancel", planEvents.subscriptionCancel(sub.planId))
              }
            >
              <h3 className="font-semibold text-white">Cancel subscription</h3>
              <p className="mt-1 text-sm text-slate-300">
                {sub.status === "paused"
                  ? "Cancelling ends the paused subscription for good: it can no longer be resumed. You keep Pro until the end of the period you paid for."
                  : switchTo
                    ? `You keep Pro until the end of the period you paid for; the switch to ${switchTo.plan} is withdrawn and nothing more is charged. You can undo it until then.`
                    : "You keep Pro until the end of the period you paid for; nothing more is charged. You can undo it until then."}
              </p>
              <label
                htmlFor="cancel-reason"
                className="mt-3 block text-sm font-medium text-slate-200"
              >
                Why are you leaving? (optional)
              </label>
              <textarea
                id="cancel-reason"
                name="reason"
                rows={2}
                maxLength={500}
                className="mt-1 block w-full max-w-lg rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none"
              />
              <input type="hidden" name="intent" value="cancel" />
              <button type="submit" className="btn-secondary mt-3" disabled={busy}>
                {sub.status === "paused" ? "Cancel subscription" : "Cancel at end of period"}
              </button>
            </Form>
          ) : null}

          {sub.cancelAtCycleEnd && running && !switchTo ? (
            <Form method="post" className="mt-8 border-t border-slate-800 pt-6">
              <input type="hidden" name="intent" value="undo-cancel" />
              <button type="submit" className="btn-primary" disabled={busy}>
                Keep my subscription
              </button>
            </Form>
          ) : null}
        </Card>
      ) : null}

      {!running && !holdsPro ? (
        <Card id="upgrade" title={sub?.status === "halted" ? "Restart Pro" : "Upgrade to Pro"}>
          <p className="mt-3 text-slate-300">
            Logic-analyser views, firmware flashing and three devices. GST invoice with every
            payment.
          </p>
          {trial?.kind === "eligible" ? (
            <Form method="post" className="mt-4" data-testid="start-trial">
              <p className="text-slate-200">
                {`Or try Pro free for ${trial.days} days: no card, nothing charged, and Free again afterwards unless you choose a plan.`}
              </p>
              <input type="hidden" name="intent" value="start-trial" />
              <button type="submit" className="btn-primary mt-3" disabled={busy}>
                {`Start the ${trial.days}-day free trial`}
              </button>
            </Form>
          ) : trial?.kind === "refused" ? (
            <p className="mt-3 text-sm text-slate-300" data-testid="trial-refused">
              {trial.message}
            </p>
          ) : null}
          <div className="mt-4 flex flex-wrap gap-3">
            <Link to="/checkout?plan=pro-monthly" className="btn-primary">
              Pro monthly
            </Link>
            <Link to="/checkout?plan=pro-yearly" className="btn-secondary">
              Pro yearly
            </Link>
            <Link to="/pricing" className="link self-center">
              Compare plans
            </Link>
          </div>
        </Card>
      ) : null}
      <p className="text-sm text-slate-300">
        A question about your subscription, or a refund?{" "}
        <Link
          to={newTicketUrl({ category: "billing", subject: "A question about my subscription" })}
          className="link"
        >
          Open a support ticket
        </Link>
        .
      </p>
    </div>
  );
}
