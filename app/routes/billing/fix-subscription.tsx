import { Form, Link, useNavigation } from "react-router";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import {
  compareForSubscriber,
  CUSTOMER_RESYNCS,
  forgetSnapshot,
} from "~/.server/billing/compare.server";
import { billingOverview } from "~/.server/billing/overview.server";
import { resyncFromProvider } from "~/.server/billing/resync.server";
import { primarySubscription, subscriptionsOf } from "~/.server/billing/subscriptions.server";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { hitRateLimit } from "~/.server/security/rate-limit.server";
import { ComparisonTable } from "~/components/billing/ComparisonTable";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Card } from "~/components/Section";
import { formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { newTicketUrl, REPLY_WITHIN_HOURS } from "~/lib/support";
import type { Route } from "./+types/fix-subscription";

export const meta: Route.MetaFunction = () =>
  pageMeta("Fix subscription", "Repair a subscription whose payment did not go through.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const current = primarySubscription(await subscriptionsOf(user.id));
  const overview = await billingOverview(user.id);
  return {
    overview,
    comparison: current ? await compareForSubscriber(user.id, current) : null,
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
        `Resync was pressed many times in a short while. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
        429,
      );
    }
    // The next page load asks Razorpay again instead of showing the answer from before the resync.
    forgetSnapshot(current.providerSubscriptionId);
    try {
      await resyncFromProvider(current.providerSubscriptionId);
    } catch {
      return refuse("resync", "Razorpay could not be reached. Try again in a minute.", 502);
    }
    return done("resync", "Updated from Razorpay.");
  });
}

export default function FixSubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { overview, comparison } = loaderData;
  const sub = overview.subscription;
  const busy = useNavigation().state !== "idle";
  return (
    <div className="space-y-6">
      <PageHeader
        title="Fix subscription"
        lead="What we have on record beside what Razorpay says, and the next step."
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}

      {!sub || !comparison ? (
        <p className="text-slate-300">
          You have no subscription to fix.{" "}
          <Link to="/pricing" className="link">
            See plans
          </Link>
        </p>
      ) : (
        <>
          <Card id="compare-heading" title={`${sub.plan}: ${sub.statusText}`}>
            <p className="mt-1 mb-4 text-sm text-slate-300">
              {comparison.inSync
                ? "Our record matches Razorpay."
                : "Our record and Razorpay’s differ: resync to take Razorpay’s."}
              {comparison.askedAt
                ? ` Razorpay’s answer of ${formatDateTime(comparison.askedAt)}.`
                : ""}
            </p>
            <ComparisonTable comparison={comparison} />
            <Form method="post" className="mt-4">
              <input type="hidden" name="intent" value="resync" />
              <button type="submit" className="btn-secondary" disabled={busy}>
                Resync from Razorpay
              </button>
            </Form>
          </Card>

          <Card id="next-heading" title="Next step">
            {sub.status === "pending" ? (
              <p className="mt-2 text-slate-200">
                The last charge failed and Razorpay is retrying. Authorise a working card or UPI ID
                now and the charge goes through at once.
              </p>
            ) : sub.status === "halted" ? (
              <p className="mt-2 text-slate-200">
                Razorpay stopped retrying, so your account is on Free. Authorise a working payment
                method to restart Pro: the current period is charged and Pro is back at once.
              </p>
            ) : (
              <p className="mt-2 text-slate-200">Nothing to fix: payments are up to date.</p>
            )}
            {(sub.status === "pending" || sub.status === "halted") && sub.manageUrl ? (
              <a
                href={`${sub.manageUrl}?return=${encodeURIComponent("/fix-subscription")}`}
                className="btn-primary mt-4"
                rel="noopener"
              >
                Update payment method
              </a>
            ) : null}
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
