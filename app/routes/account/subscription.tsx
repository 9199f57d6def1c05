import { useEffect, useRef } from "react";
import { personBuyer } from "~/.server/billing/buyer";
import { STATUS_RULES } from "~/lib/subscription-state";
import { Link } from "react-router";
import { z } from "zod";
import { accountState } from "~/.server/account/account-state.server";
import { requireSession } from "~/.server/auth/session";
import {
  pauseSubscription,
  resumeSubscription,
  undoCancellation,
  withdrawSwitch,
} from "~/.server/billing/manage.server";
import { pauseResumeRefusal } from "~/.server/billing/pause-limit.server";
import { refundKey } from "~/.server/billing/refunds.server";
import { requestSelfRefund } from "~/.server/billing/self-refund.server";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { startTrial, TRIAL_REFUSALS } from "~/.server/trials/trials.server";
import { analyticsIdOf } from "~/.server/analytics/visitor-id.server";
import { readConsent } from "~/lib/analytics/consent";
import { Detail } from "~/components/account/Detail";
import { SubscriptionCard } from "~/components/account/SubscriptionCard";
import { SubscriptionNotice } from "~/components/account/SubscriptionNotice";
import { UpgradeCard } from "~/components/account/UpgradeCard";
import { subscriptionPage } from "~/.server/billing/subscription-page.server";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Card } from "~/components/Section";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { formatDate } from "~/lib/dates";
import { formatInr, formatPrice } from "~/lib/money";
import { planLabel } from "~/lib/plans";
import { pageMeta } from "~/lib/meta";
import { trialDaysLeft } from "~/lib/trials";
import { newTicketUrl } from "~/lib/support";
import { appReturnFor } from "~/.server/desktop/app-return.server";
import { ReturnToApp } from "~/components/ReturnToApp";
import type { Route } from "./+types/subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Subscription", "Your plan, its next charge, and how to change or cancel it.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  return {
    ...(await subscriptionPage(user, await accountState(context), request.url)),
    // Opened from the app to resume (issue 57, point 4): the way back to it.
    appReturn: appReturnFor(request, { done: "subscription" }),
  };
}

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("undo-cancel") }),
  z.object({
    intent: z.literal("pause"),
    /** A pause with an end (issue 59): resumes by itself after 1–3 cycles; "" until resumed. */
    resumeAfter: z.enum(["", "1", "2", "3"]).default(""),
  }),
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
    if (input.intent === "pause" || input.intent === "resume") {
      // Each press asks Razorpay: counted per account before it does.
      const refusal = await pauseResumeRefusal(user.id);
      if (refusal) return refuse(input.intent, refusal, 429);
    }
    if (input.intent === "pause") {
      const row = await pauseSubscription(user.id, {
        resumeAfterCycles: Number(input.resumeAfter) || undefined,
      });
      return done(
        "pause",
        row.resumeAt
          ? `Paused: nothing is charged until it resumes by itself on ${formatDate(row.resumeAt.toISOString())}; we write three days before.`
          : row.currentEnd && row.currentEnd > new Date()
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
      const { refund } = await requestSelfRefund(user, input);
      // Twice (a double submit) is one request: the same answer both times.
      return done(
        "request-refund",
        `Refund requested: ${formatPrice(refund)} goes back to where you paid from, and Pro ends now. A mail with the credit note and the refund reference follows; Invoices shows where it stands.`,
      );
    }
    if (input.intent === "withdraw-switch") {
      const { current, withdrawn } = await withdrawSwitch(personBuyer(user.id));
      return done(
        "withdraw-switch",
        withdrawn
          ? `You stay on ${planLabel(current.planId)}; the switch to ${planLabel(withdrawn.planId)} is withdrawn.`
          : "There is no plan change scheduled; your plan stays as it is.",
      );
    }
    await undoCancellation(personBuyer(user.id));
    return done("undo-cancel", "Your subscription continues; it renews as before.");
  });
}

export default function SubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, devicesInUse, overview, renewal, testMode, notice, trial, holdsPro, proFrom } =
    loaderData;
  const sub = overview.subscription;
  const switchTo = overview.switchTo;
  const devices = (count: number) => `${count} ${count === 1 ? "device" : "devices"}`;
  // Sent once per start the action confirmed (not on a refusal), with analytics consent only.
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (actionData?.intent !== "start-trial" || !actionData.ok) return;
    if (trial?.kind !== "running" || reported.current === actionData) return;
    reported.current = actionData;
    track("trial_start", planEvents.trialStart("pro-monthly", trialDaysLeft(trial.endsAt)));
  }, [actionData, trial]);
  const running = sub !== null && STATUS_RULES[sub.status].renews;
  // A plan bought during the trial to start at its end (issue 36, point 4): authorised, waiting.
  const startsAfterTrial =
    trial?.kind === "running" && sub?.state === "authorised" && !switchTo && !!renewal?.next;

  return (
    <div className="space-y-6">
      <PageHeader title="Subscription" lead="Your plan, what it includes and what happens next.">
        <div className="mt-3">
          <TestModeBadge show={testMode && sub !== null} />
        </div>
        <div className="mt-3">
          <ReturnToApp href={loaderData.appReturn} />
        </div>
      </PageHeader>
      <SubscriptionNotice notice={notice} subscription={sub} />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}

      {trial?.kind === "running" &&
      proFrom.kind !== "subscription" &&
      (!running || startsAfterTrial) ? (
        <Card id="trial" title="Your free Pro trial">
          <p className="mt-3 text-lg text-slate-100" data-testid="trial-countdown">
            {trial.countdown}
          </p>
          <p className="mt-2 text-sm text-slate-300" data-testid="trial-next">
            {startsAfterTrial && sub
              ? `${sub.plan} starts when it ends: the first charge, ${renewal?.next ? formatPrice(renewal.next.amount) : formatInr(0)}, is on ${formatDate(trial.endsAt)}, and nothing is charged before. To not start it, cancel it below before then.`
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
        {proFrom.text && proFrom.kind !== "trial" ? (
          <p className="mt-4 text-slate-200" data-testid="pro-source">
            {proFrom.text}
            {proFrom.teamId ? (
              <>
                {" "}
                <Link to={`/account/team/${proFrom.teamId}`} className="link">
                  See the team
                </Link>
              </>
            ) : null}
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

      <SubscriptionCard page={loaderData} />

      {!running && !holdsPro ? (
        <UpgradeCard trial={trial} halted={sub?.state === "halted"} />
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
