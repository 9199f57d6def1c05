import { Form } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import type { FixBilling } from "~/.server/admin/fix-view.server";
import { AdminSection, HiddenFields } from "~/components/admin/AdminUi";
import { Field } from "~/components/forms";
import { formatDate } from "~/lib/dates";
import { TRIAL_ENDED_BECAUSE, trialCountdown } from "~/lib/trials";
import type { SectionProps } from "./shared";

const SOURCES = { site: "the site", desktop: "the desktop app" } as const;

/** The customer's free trial (issue 36): when and where it started, its end, and an extension. */
export function TrialSection({
  trial,
  customerId,
  errors,
}: SectionProps & { trial: NonNullable<FixBilling["trial"]> }) {
  const extending = useFormPending({ intent: "extend-trial" });
  return (
    <AdminSection id="trial" title="Free trial">
      <p className="text-slate-200" data-testid="admin-trial">
        {`Started ${formatDate(trial.startedAt)} from ${SOURCES[trial.source]}; ${
          trial.running
            ? `${trialCountdown(trial.endsAt).replace(/^Pro trial: /, "")}.`
            : trial.endReason
              ? `ended ${formatDate(trial.endsAt)}, early: ${TRIAL_ENDED_BECAUSE[trial.endReason]}.`
              : `ended ${formatDate(trial.endsAt)}.`
        }`}
      </p>
      {trial.running ? (
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
          <HiddenFields values={{ intent: "extend-trial", userId: customerId }} />
          <Field
            label="More days"
            name="days"
            type="number"
            min={1}
            max={90}
            defaultValue="7"
            className="w-24"
            errors={errors.days}
          />
          <Field label="Reason" name="reason" className="w-72" errors={errors.reason} />
          <button type="submit" className="btn-secondary mb-6" disabled={extending}>
            Extend the trial
          </button>
        </Form>
      ) : null}
    </AdminSection>
  );
}
