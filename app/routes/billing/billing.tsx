import { Form, Link } from "react-router";
import { personBuyer } from "~/.server/billing/buyer";
import { useFormPending } from "~/components/use-form-pending";
import { allows } from "~/lib/subscription-state";
import { formatDate } from "~/lib/dates";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { billingProfileOf, saveBillingProfile } from "~/.server/billing/billing-profile.server";
import { billingOverview } from "~/.server/billing/overview.server";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { done, formAction } from "~/.server/forms/action.server";
import {
  type BillingDefaults,
  billingDefaults,
  BillingDetailsFields,
} from "~/components/billing/BillingDetailsFields";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import { abroadDefaults, AbroadDetailsFields } from "~/components/billing/AbroadDetailsFields";
import { FormMessage, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Card } from "~/components/Section";
import { abroadDetailsSchema, billingDetailsSchema, isAbroad } from "~/lib/billing-details";
import { stateByCode } from "~/lib/gst";
import { pageMeta } from "~/lib/meta";
import { newTicketUrl } from "~/lib/support";
import { appReturnFor } from "~/.server/desktop/app-return.server";
import { ReturnToApp } from "~/components/ReturnToApp";
import type { Route } from "./+types/billing";

export const meta: Route.MetaFunction = () =>
  pageMeta("Billing", "Payment method and billing details.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const side = new URL(request.url).searchParams.get("side");
  const [profile, overview] = await Promise.all([
    billingProfileOf(user.id),
    billingOverview(personBuyer(user.id)),
  ]);
  // The form of the side of the border the saved address is on, or the one asked for.
  const abroad = side === "abroad" || (side !== "india" && profile !== null && isAbroad(profile));
  return {
    // Opened from the app to update the payment method (issue 57, point 4): the way back to it.
    appReturn: appReturnFor(request, { done: "payment-method" }),
    abroad,
    abroadDefaults: abroadDefaults(profile, user.name),
    defaults: billingDefaults(profile, user.name),
    saved: profile !== null,
    stateName: profile ? (stateByCode(profile.stateCode)?.name ?? profile.stateCode) : null,
    overview,
    testMode: paymentsConfig().testMode,
  };
}

const schema = z.intersection(
  z.object({ intent: z.literal("save-details") }),
  billingDetailsSchema,
);
/** A billing address outside India (issue 56): the abroad form sends a country. */
const abroadSchema = z.intersection(
  z.object({ intent: z.literal("save-details") }),
  abroadDetailsSchema,
);

/** The form's fields, sent back as typed when the form is refused (a post without JavaScript). */
const FIELDS = [
  "name",
  "addressLine1",
  "addressLine2",
  "city",
  "postalCode",
  "stateCode",
  "gstin",
  "countryCode",
  "taxId",
] as const satisfies readonly (keyof BillingDefaults | "countryCode" | "taxId")[];

export async function action(args: Route.ActionArgs) {
  const abroad = (await args.request.clone().formData()).has("countryCode");
  return formAction(
    args,
    abroad ? abroadSchema : schema,
    async ({ intent: _intent, ...details }, { user }) => {
      await saveBillingProfile(user.id, details);
      return done(
        "save-details",
        "Saved. Invoices for future payments use these details; issued invoices stay as they are.",
      );
    },
    { echo: FIELDS },
  );
}

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { defaults, overview, testMode, abroad } = loaderData;
  const sub = overview.subscription;
  const saving = useFormPending({ intent: "save-details" });
  const errors = actionData && "errors" in actionData ? (actionData.errors ?? {}) : {};
  // Refused: what was typed, not what is saved (drawn again after a post without JavaScript).
  const typed = actionData && "values" in actionData ? actionData.values : undefined;
  const shown = typed ? { ...defaults, ...typed } : defaults;
  return (
    <div className="space-y-6">
      <PageHeader title="Billing" lead="Payment method and the details on your tax invoices.">
        <div className="mt-3">
          <TestModeBadge show={testMode && sub !== null} />
        </div>
        <div className="mt-3">
          <ReturnToApp href={loaderData.appReturn} />
        </div>
      </PageHeader>

      <Card id="method-heading" title="Payment method">
        {sub ? (
          <>
            <p className="mt-3 text-slate-200" data-testid="payment-method">
              {sub.paymentMethod ??
                "Not known yet: it appears once Razorpay confirms the first payment."}
            </p>
            {overview.switchTo?.kind === "method" && overview.switchTo.startsAt ? (
              <p className="mt-2 text-slate-200" data-testid="next-payment-method">
                {`From ${formatDate(overview.switchTo.startsAt)}: ${overview.switchTo.method ?? "the new payment method"}, authorised; the current one pays nothing more.`}
              </p>
            ) : null}
            <p className="mt-2 text-sm text-slate-300">
              Razorpay keeps your card or UPI AutoPay mandate; we never see the card number. To pay
              another way, authorise a new card or UPI AutoPay: it pays from your next charge, and
              the current one is cancelled once the new one is authorised.
            </p>
            {allows(sub.state, "switch") && !overview.switchTo ? (
              <Link
                to={`/checkout?plan=${sub.planId}&switch=1&change=method`}
                className="btn-secondary mt-4"
              >
                Change payment method
              </Link>
            ) : null}
          </>
        ) : (
          <p className="mt-3 text-slate-300">
            No subscription yet.{" "}
            <Link to="/pricing" className="link">
              See plans
            </Link>
          </p>
        )}
        <p className="mt-4 text-sm">
          <Link to="/invoices" className="link">
            Invoices
          </Link>{" "}
          ·{" "}
          <Link to="/account/subscription" className="link">
            Subscription
          </Link>
        </p>
      </Card>

      <Form
        method="post"
        noValidate
        className="rounded-xl border border-slate-800 bg-slate-900 p-6"
        aria-labelledby="details-heading"
      >
        <h2 id="details-heading" className="mb-4 text-lg font-semibold text-white">
          Billing details
        </h2>
        {actionData?.message ? (
          <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
        ) : null}
        <input type="hidden" name="intent" value="save-details" />
        {abroad ? (
          <AbroadDetailsFields
            defaults={
              typed ? { ...loaderData.abroadDefaults, ...typed } : loaderData.abroadDefaults
            }
            errors={errors}
          />
        ) : (
          <BillingDetailsFields defaults={shown} errors={errors} />
        )}
        <p className="mb-2 text-sm">
          <Link to={abroad ? "/billing?side=india" : "/billing?side=abroad"} className="link">
            {abroad ? "My billing address is in India" : "My billing address is outside India"}
          </Link>
        </p>
        <SubmitButton
          pending={saving}
          label="Save billing details"
          pendingLabel="Saving…"
          className="btn-primary mt-2"
        />
      </Form>
      <p className="mt-6 text-sm text-slate-300">
        Still stuck?{" "}
        <Link
          to={newTicketUrl({ category: "billing", subject: "A question about billing" })}
          className="link"
        >
          Open a support ticket
        </Link>
        .
      </p>
    </div>
  );
}
