import { data, Form, Link, redirect } from "react-router";
import { z } from "zod";
import {
  isBillingLinkAction,
  logLinkUse,
  openBillingLink,
} from "~/.server/billing/billing-links.server";
import { billingLinkPage, LINK_REFUSALS, runLinkAction } from "~/.server/billing/link-page.server";
import { db } from "~/.server/db";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { Detail } from "~/components/account/Detail";
import { PauseForm } from "~/components/account/PauseForm";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Card } from "~/components/Section";
import { usePendingForms } from "~/components/use-form-pending";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/manage-link";

export const meta: Route.MetaFunction = () => [
  ...pageMeta("Your subscription", "Pay, change how you pay, pause, resume or cancel."),
  // A personal link: never indexed, never kept by a shared cache.
  { name: "robots", content: "noindex" },
];

export function headers() {
  return { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

/**
 * A billing mail's signed link (issue 59, point 2; decision 0072): one subscription's billing,
 * without signing in. Nobody is signed in by it; other pages stay as they are.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const opened = await openBillingLink(params.token);
  if (!opened.ok) {
    const refusal = LINK_REFUSALS[opened.reason];
    return data({ refused: refusal.message, page: null }, { status: refusal.status });
  }
  // Every time the page is drawn with the link (after an action too), as the action's own entry.
  await logLinkUse(db(), opened, "open");
  return { refused: null, page: await billingLinkPage(opened) };
}

const schema = z.object({
  intent: z.enum(["pay", "change-method", "pause", "resume", "cancel"]),
  resumeAfter: z.enum(["", "1", "2", "3"]).default(""),
});

export async function action(args: Route.ActionArgs) {
  const opened = await openBillingLink(args.params.token);
  if (!opened.ok) {
    const refusal = LINK_REFUSALS[opened.reason];
    return refuse("form", refusal.message, refusal.status);
  }
  // Billing commands only: anything else is refused, logged, and changes nothing.
  const intent = (await args.request.clone().formData()).get("intent");
  if (!isBillingLinkAction(intent)) {
    await logLinkUse(db(), opened, "refused", { intent: String(intent ?? "") });
    return refuse(
      "form",
      "This link is for billing only: pay, change how you pay, pause, resume or cancel. Sign in for anything else.",
      403,
    );
  }
  return formAction(
    args,
    schema,
    async (input) => {
      const result = await runLinkAction(opened, input.intent, {
        resumeAfter: Number(input.resumeAfter) || undefined,
      });
      if ("redirect" in result) throw redirect(result.redirect);
      return done(input.intent, result.message);
    },
    { who: "anyone" },
  );
}

export default function ManageLinkPage({ loaderData, actionData }: Route.ComponentProps) {
  const pending = usePendingForms();
  const { refused, page } = loaderData;
  if (refused || !page)
    return (
      <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
        <PageHeader title="Your subscription" />
        <FormMessage tone="error" message={refused} />
        <p className="mt-4">
          <Link to="/auth?next=/account/subscription" className="btn-primary">
            Sign in
          </Link>
        </p>
      </div>
    );
  const { commands } = page;
  const button = (intent: string, label: string, primary = false) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <button
        type="submit"
        className={primary ? "btn-primary" : "btn-secondary"}
        disabled={pending({ intent })}
      >
        {label}
      </button>
    </Form>
  );
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-10 sm:px-6">
      <PageHeader
        title="Your subscription"
        lead={`For ${page.email}, from the link in your mail: billing only. Sign in for your account's settings.`}
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}
      <Card id="link-subscription" title={page.plan ?? "Subscription"}>
        {page.plan ? (
          <dl className="mt-4 grid gap-4 sm:grid-cols-2">
            <Detail term="Status">
              <span data-testid="subscription-status">{page.status}</span>
            </Detail>
            {page.nextCharge ? <Detail term="Next charge">{page.nextCharge}</Detail> : null}
            <Detail term="Payment method">{page.paymentMethod ?? "Not known yet"}</Detail>
          </dl>
        ) : (
          <p className="mt-3 text-slate-300">
            This subscription has ended or was replaced. Sign in to see your account.
          </p>
        )}
        {commands.pay ? (
          <p className="mt-4 text-sm text-slate-300">
            Razorpay&apos;s page takes the missed charge with the card or UPI AutoPay you paid with,
            or a new one, which then pays from now on.
          </p>
        ) : null}
        <div className="mt-6 flex flex-wrap gap-3">
          {commands.pay ? button("pay", "Pay the missed charge", true) : null}
          {commands.changeMethod ? button("change-method", "Change payment method") : null}
          {commands.resume ? button("resume", "Resume subscription") : null}
        </div>
        {commands.pause ? (
          <PauseForm
            title="Pause"
            text="Nothing is charged while it is paused; Pro runs to the end of the period paid."
            planId={page.planId ?? ""}
            className="mt-6 border-t border-slate-800 pt-6"
          />
        ) : null}
        {commands.cancel ? (
          <div className="mt-6 border-t border-slate-800 pt-6">
            <h3 className="font-semibold text-white">Cancel</h3>
            <p className="mt-1 mb-3 text-sm text-slate-300">{page.cancelWords}</p>
            {button("cancel", "Cancel my subscription")}
          </div>
        ) : null}
      </Card>
    </div>
  );
}
