import { Form } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import type { FixBilling } from "~/.server/admin/fix-view.server";
import { AdminSection, HiddenFields } from "~/components/admin/AdminUi";
import { Field } from "~/components/forms";
import { formatDate } from "~/lib/dates";
import { PAID_PLAN_IDS, planLabel } from "~/lib/plans";
import type { SectionProps } from "./shared";

export function GrantSection({
  grants,
  customerId,
  errors,
}: SectionProps & { grants: FixBilling["grants"] }) {
  const granting = useFormPending({ intent: "grant" });
  return (
    <AdminSection
      id="grant"
      title="Grant a plan"
      lead="Pro without payment for a number of days (goodwill, press, support)."
    >
      <Form method="post" className="flex flex-wrap items-end gap-3">
        <HiddenFields values={{ intent: "grant", userId: customerId }} />
        <div>
          <label htmlFor="grant-plan" className="block text-sm font-medium text-slate-200">
            Plan
          </label>
          <select
            id="grant-plan"
            name="planId"
            className="mt-1 mb-6 block rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100"
          >
            {PAID_PLAN_IDS.map((plan) => (
              <option key={plan} value={plan}>
                {planLabel(plan)}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Days"
          name="days"
          type="number"
          min={1}
          max={366}
          defaultValue="30"
          className="w-24"
          errors={errors.days}
        />
        <Field label="Reason" name="reason" className="w-72" errors={errors.reason} />
        <button type="submit" className="btn-primary mb-6" disabled={granting}>
          Grant
        </button>
      </Form>
      {grants.length > 0 ? (
        <ul className="mt-2 text-sm text-slate-200">
          {grants.map((grant) => (
            <li
              key={grant.id}
            >{`${grant.plan} until ${formatDate(grant.endsAt)}: ${grant.reason}`}</li>
          ))}
        </ul>
      ) : null}
    </AdminSection>
  );
}
