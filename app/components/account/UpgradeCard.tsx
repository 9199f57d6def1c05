/**
 * /account/subscription's way to Pro for someone on Free (never shown to anyone holding Pro): the
 * plans, and the free trial when it is open to them, or why it is not.
 */
import { Form, Link } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import type { SubscriptionPage } from "~/.server/billing/subscription-page.server";
import { Card } from "~/components/Section";

export function UpgradeCard({
  trial,
  halted,
}: {
  trial: SubscriptionPage["trial"];
  halted: boolean;
}) {
  const starting = useFormPending({ intent: "start-trial" });
  return (
    <Card id="upgrade" title={halted ? "Restart Pro" : "Upgrade to Pro"}>
      <p className="mt-3 text-slate-300">
        Logic-analyser views, firmware flashing and three devices. GST invoice with every payment.
      </p>
      {trial?.kind === "eligible" ? (
        <Form method="post" className="mt-4" data-testid="start-trial">
          <p className="text-slate-200">
            {`Or try Pro free for ${trial.days} days: no card, nothing charged, and Free again afterwards unless you choose a plan.`}
          </p>
          <input type="hidden" name="intent" value="start-trial" />
          <button type="submit" className="btn-primary mt-3" disabled={starting}>
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
  );
}
