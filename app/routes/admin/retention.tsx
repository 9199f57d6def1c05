import { Form } from "react-router";
import { z } from "zod";
import { requireAdmin } from "~/.server/auth/session";
import { listCoupons } from "~/.server/coupons/admin.server";
import { done, formAction } from "~/.server/forms/action.server";
import { cancelFlowsByPlan, saveCancelFlow } from "~/.server/retention/flows.server";
import { retentionStats } from "~/.server/retention/stats.server";
import { AdminPage, AdminSection } from "~/components/admin/AdminUi";
import { RetentionSummary } from "~/components/admin/RetentionSummary";
import { FormMessage, SelectField } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { usePendingForms } from "~/components/use-form-pending";
import {
  CANCEL_OFFER_KINDS,
  CANCEL_OFFER_RULES,
  CANCEL_BUTTON,
  PAUSE_CYCLE_CHOICES,
} from "~/lib/cancel-flow";
import { pageMeta } from "~/lib/meta";
import { PAID_PLAN_IDS, planById, planLabel } from "~/lib/plans";
import type { Route } from "./+types/retention";

export const meta: Route.MetaFunction = () =>
  pageMeta("Cancellations", "Why customers cancel, and the one offer each plan shows them.");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const [flows, stats, coupons] = await Promise.all([
    cancelFlowsByPlan(),
    retentionStats(),
    listCoupons(),
  ]);
  return {
    flows: PAID_PLAN_IDS.map((planId) => ({
      ...flows[planId],
      label: planLabel(planId),
      monthly: planById(planId).billingCycle === "monthly",
    })),
    stats,
    // A customer who cancels has paid before: first-purchase coupons would refuse them.
    coupons: coupons
      .filter((coupon) => !coupon.firstPurchaseOnly && !coupon.disabledAt)
      .map((coupon) => ({ code: coupon.code, planIds: coupon.planIds })),
  };
}

const schema = z.object({
  intent: z.literal("save-flow"),
  planId: z.enum(PAID_PLAN_IDS),
  offer: z
    .union([z.literal("none"), z.enum(CANCEL_OFFER_KINDS)], { error: "Choose an offer, or none." })
    .transform((value) => (value === "none" ? null : value)),
  pauseCycles: z.coerce.number().int().optional(),
  couponCode: z.string().trim().max(64).optional(),
});

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async (input, session) => {
      const flow = await saveCancelFlow(session, input);
      return done(
        `save-flow:${input.planId}`,
        flow.offer
          ? `${planLabel(input.planId)}: customers who open the cancel step are offered "${CANCEL_OFFER_RULES[flow.offer].label}"${flow.coupon ? ` (${flow.coupon.code})` : flow.pauseCycles ? ` (${flow.pauseCycles})` : ""}, beside "${CANCEL_BUTTON}".`
          : `${planLabel(input.planId)}: no offer; the cancel step asks for a reason only.`,
      );
    },
    { role: "admin" },
  );
}

export default function RetentionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { flows, stats, coupons } = loaderData;
  const pending = usePendingForms();
  return (
    <AdminPage>
      <PageHeader
        title="Cancellations"
        lead={`"Cancel subscription" opens one step: an optional reason and at most one offer, set here per plan, with "${CANCEL_BUTTON}" beside it in the same style. Declining the offer cancels at once; nothing is changed without the customer's click.`}
      />
      {/* A refusal names the field and the plan's rule; a success shows beside its plan. */}
      {actionData && !actionData.ok ? (
        <FormMessage tone="error" message={actionData.message} />
      ) : null}
      <RetentionSummary stats={stats} />
      <AdminSection id="flows" title="The offer each plan shows">
        <ul className="space-y-6">
          {flows.map((flow) => {
            const forPlan = coupons.filter(
              (coupon) => coupon.planIds.length === 0 || coupon.planIds.includes(flow.planId),
            );
            return (
              <li key={flow.planId} className="border-b border-slate-800 pb-6 last:border-0">
                <h3 className="font-semibold text-white">{flow.label}</h3>
                {actionData?.intent === `save-flow:${flow.planId}` && actionData.message ? (
                  <FormMessage
                    tone={actionData.ok ? "success" : "error"}
                    message={actionData.message}
                  />
                ) : null}
                <Form method="post" className="mt-2 flex flex-wrap items-end gap-3">
                  <input type="hidden" name="intent" value="save-flow" />
                  <input type="hidden" name="planId" value={flow.planId} />
                  <SelectField label="Offer" name="offer" defaultValue={flow.offer ?? "none"}>
                    <option value="none">No offer</option>
                    {CANCEL_OFFER_KINDS.filter((kind) => kind !== "yearly" || flow.monthly).map(
                      (kind) => (
                        <option key={kind} value={kind}>
                          {CANCEL_OFFER_RULES[kind].label}
                        </option>
                      ),
                    )}
                  </SelectField>
                  <SelectField
                    label="Pause length (cycles)"
                    name="pauseCycles"
                    defaultValue={String(flow.pauseCycles ?? 1)}
                  >
                    {PAUSE_CYCLE_CHOICES.map((cycles) => (
                      <option key={cycles} value={cycles}>
                        {cycles}
                      </option>
                    ))}
                  </SelectField>
                  <SelectField
                    label="Coupon for a discount"
                    name="couponCode"
                    defaultValue={flow.coupon?.code ?? ""}
                  >
                    <option value="">None</option>
                    {forPlan.map((coupon) => (
                      <option key={coupon.code} value={coupon.code}>
                        {coupon.code}
                      </option>
                    ))}
                  </SelectField>
                  <button
                    type="submit"
                    className="btn-primary mb-6"
                    disabled={pending({ intent: "save-flow" })}
                  >
                    {`Save for ${flow.label}`}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
        <ul className="mt-2 list-inside list-disc text-sm text-slate-300">
          {CANCEL_OFFER_KINDS.map((kind) => (
            <li
              key={kind}
            >{`${CANCEL_OFFER_RULES[kind].label}: ${CANCEL_OFFER_RULES[kind].appliesTo}`}</li>
          ))}
        </ul>
      </AdminSection>
    </AdminPage>
  );
}
