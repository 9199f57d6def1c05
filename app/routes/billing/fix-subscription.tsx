import { Form, Link } from "react-router";
import { personBuyer } from "~/.server/billing/buyer";
import { useFormPending } from "~/components/use-form-pending";
import { STATUS_RULES } from "~/lib/subscription-state";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import {
  compareForSubscriber,
  CUSTOMER_RESYNCS,
  forgetSnapshot,
} from "~/.server/billing/compare.server";
import { billingOverview } from "~/.server/billing/overview.server";
import { resyncWithPayments } from "~/.server/billing/missed-payments.server";
import { primarySubscription, subscriptionsOf } from "~/.server/billing/subscriptions.server";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { hitRateLimit } from "~/.server/security/rate-limit.server";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Card } from "~/components/Section";
import { formatPrice } from "~/lib/money";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { newTicketUrl, REPLY_WITHIN_HOURS } from "~/lib/support";
import type { Route } from "./+types/fix-subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Fix subscription", "Repair a subscription whose payment did not go through.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const current = primarySubscription(await subscriptionsOf(user.id));
  const overview = await billingOverview(personBuyer(user.id));
  // Only whether Razorpay knows something newer: the field-by-field comparison is the operator's
  // (/admin-fix-subscription), not words for a customer (issue 34, point 5).
  const comparison = current ? await compareForSubscriber(user.id, current) : null;
  return {
    overview,
    comparison: comparison && { inSync: comparison.inSync, error: comparison.error !== null },
  };
}

const schema = z.object({ intent: z.literal("resync") });

export async function action(args: Route.ActionArgs) {
  return formAction(args, schema, async (_input, { user }) => {
    const current = primarySubscription(await subscriptionsOf(user.id));
    if (!current) return refuse("resync", "There is no subscription to resync.", 404);
    const limit = await hitRateLimit(
      `provider-resync:${user.id}`,
      CUSTOMER_RESYNCS.max,
      CUSTOMER_RESYNCS.windowSeconds,
    );
    if (!limit.allowed) {
      const minutes = Math.max(1, Math.ceil(limit.retryAfter / 60));
      return refuse(
        "resync",
        `You checked with Razorpay many times in a short while. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
        429,
      );
    }
    // The next page load asks Razorpay again instead of showing the answer from before the resync.
    forgetSnapshot(current.providerSubscriptionId);
    try {
      await resyncWithPayments(current.providerSubscriptionId);
    } catch {
      return refuse("resync", "Razorpay could not be reached. Try again in a minute.", 502);
    }
    return done("resync", "Checked with Razorpay: this page shows what it has on record.");
  });
}

/** What went wrong, what happens next, and the one thing to do, for each state (issue 34). */
function storyOf(
  sub: NonNullable<Route.ComponentProps["loaderData"]["overview"]["subscription"]>,
): {
  title: string;
  happened: string;
  next: string;
  fix: boolean;
} {
  const amount = sub.nextCharge !== null ? ` of ${formatPrice(sub.nextCharge)}` : "";
  const dunning = STATUS_RULES[sub.status].dunning;
  if (dunning === "pending")
    return {
      title: "Your last payment failed",
      happened: `Razorpay could not take the ${sub.plan} charge${amount} from ${sub.paymentMethod ?? "your payment method"}. ${sub.nextChargeAt ? `It tries again on ${formatDate(sub.nextChargeAt)}, then daily while it fails` : "It is retrying over the next few days"}, and Pro stays on meanwhile.`,
      next: "We email you after a failed try. If every retry fails, the subscription stops and your account moves to Free. Authorising a working card or UPI ID now takes the charge at once and ends this.",
      fix: true,
    };
  if (dunning === "halted")
    return {
      title: "Payments stopped after failed retries",
      happened: `Razorpay stopped trying to charge ${sub.plan}${sub.paymentMethod ? ` to ${sub.paymentMethod}` : ""}, so your account is on Free.`,
      next: "Authorise a working card or UPI ID: the missed charge is taken at once and Pro is back straight away, without buying again.",
      fix: true,
    };
  if (sub.state === "activating")
    return {
      title: "Your payment is being confirmed",
      happened: `Your payment for ${sub.plan} went through; Razorpay has not confirmed it to us yet.`,
      next: "This usually takes under a minute, and Pro starts as soon as it does. Nothing to do.",
      fix: false,
    };
  if (sub.state === "checkout-open")
    return {
      title: "Nothing was paid yet",
      happened: `The ${sub.plan} checkout was started but not paid.`,
      next: "Nothing was charged. Buy again from the pricing page when you are ready.",
      fix: false,
    };
  return {
    title: "Nothing to fix",
    happened: `${sub.plan}: ${sub.statusText}.`,
    next: "Payments are up to date. Your subscription page says what renews when.",
    fix: false,
  };
}

export default function FixSubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { overview, comparison } = loaderData;
  const sub = overview.subscription;
  const checking = useFormPending({ intent: "resync" });
  const story = sub ? storyOf(sub) : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Fix subscription"
        lead="What went wrong with a payment, what happens next, and how to put it right."
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}

      {!sub || !story ? (
        <p className="text-slate-300">
          You have no subscription to fix.{" "}
          <Link to="/pricing" className="link">
            See plans
          </Link>
        </p>
      ) : (
        <>
          <Card id="fix-heading" title={story.title}>
            <p className="mt-2 text-slate-200" data-testid="fix-happened">
              {story.happened}
            </p>
            <p className="mt-2 text-slate-300" data-testid="fix-next">
              {story.next}
            </p>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              {story.fix && sub.manageUrl ? (
                <a
                  href={`${sub.manageUrl}?return=${encodeURIComponent("/fix-subscription")}`}
                  className="btn-primary"
                  rel="noopener"
                >
                  Update payment method
                </a>
              ) : null}
              {story.fix ? null : (
                <Link to="/account/subscription" className="btn-secondary">
                  Your subscription
                </Link>
              )}
            </div>
          </Card>

          <Card id="check-heading" title="Paid a moment ago?">
            <p className="mt-2 text-sm text-slate-300">
              {comparison && !comparison.inSync && !comparison.error
                ? "Razorpay has news about your subscription that this page does not show yet. Check with Razorpay to bring it in."
                : "If you paid and this page still says otherwise, check with Razorpay: it takes what Razorpay has on record."}
            </p>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="resync" />
              <button type="submit" className="btn-secondary" disabled={checking}>
                Check with Razorpay again
              </button>
            </Form>
            <p className="mt-4 text-sm text-slate-300">
              Still stuck?{" "}
              <Link
                to={newTicketUrl({
                  category: "billing",
                  subject: `Subscription ${sub.providerSubscriptionId} needs fixing`,
                })}
                className="link"
              >
                Open a support ticket
              </Link>
              : it carries your subscription id, and a person replies within {REPLY_WITHIN_HOURS}{" "}
              hours.
            </p>
          </Card>
        </>
      )}
    </div>
  );
}
