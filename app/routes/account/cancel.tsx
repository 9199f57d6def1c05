import { redirect } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { personBuyer } from "~/.server/billing/buyer";
import { formAction } from "~/.server/forms/action.server";
import {
  answerCancelFlow,
  cancelFlowPage,
  type CancelFlowResult,
} from "~/.server/retention/cancel-flow.server";
import { CancelFlowForm } from "~/components/account/CancelFlowForm";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { cancelFlowSchema } from "~/lib/cancel-flow";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/cancel";

export const meta: Route.MetaFunction = () =>
  pageMeta("Cancel subscription", "Cancel your subscription, or take the one offer shown.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const page = await cancelFlowPage(user, personBuyer(user.id));
  // Nothing to cancel (ended, already ending, halted): the subscription page says what it is.
  if (!page) throw redirect("/account/subscription");
  return page;
}

export async function action(args: Route.ActionArgs) {
  return formAction(args, cancelFlowSchema, async (input, { user }) => {
    throw redirect(nextPage(await answerCancelFlow(user, personBuyer(user.id), input)));
  });
}

/** Where the customer lands: their subscription saying what changed, or the offer's checkout. */
function nextPage(result: CancelFlowResult): string {
  switch (result.kind) {
    case "cancelled":
      return "/account/subscription?notice=cancelled";
    case "paused":
      return "/account/subscription?notice=paused";
    case "checkout":
      return result.url;
  }
}

export default function CancelSubscriptionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, consequences, offer, planId } = loaderData;
  return (
    <div className="space-y-6">
      <CancelFlowForm
        title={`Cancel ${plan}`}
        consequences={consequences}
        offer={offer}
        backTo="/account/subscription"
        answer={actionData}
        onCancel={() => track("subscription_cancel", planEvents.subscriptionCancel(planId))}
      />
    </div>
  );
}
