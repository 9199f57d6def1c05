/**
 * "Pause subscription", with its end (issue 59): until the customer resumes it, or by itself
 * after 1–3 of the plan's billing cycles. One form for the renewal centre and a billing mail's
 * link page; both post `intent=pause` and `resumeAfter` to their own action.
 */
import { useId } from "react";
import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { cycleCount, PAUSE_CYCLE_CHOICES } from "~/lib/cancel-flow";

export function PauseForm({
  title,
  text,
  planId,
  className = "mt-8 border-t border-slate-800 pt-6",
}: {
  title: string;
  text: string;
  planId: string;
  className?: string;
}) {
  const pending = usePendingForms();
  const id = useId();
  return (
    <Form method="post" className={className}>
      <h3 className="font-semibold text-white">{title}</h3>
      <p className="mt-1 text-sm text-slate-300">{text}</p>
      <input type="hidden" name="intent" value="pause" />
      <label htmlFor={id} className="mt-3 block text-sm font-medium text-slate-200">
        Resume
      </label>
      <select
        id={id}
        name="resumeAfter"
        defaultValue=""
        className="mt-1 block w-full max-w-xs rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none"
      >
        <option value="">When I resume it</option>
        {PAUSE_CYCLE_CHOICES.map((cycles) => (
          <option key={cycles} value={cycles}>
            {`By itself after ${cycleCount(cycles, planId)} (we write first)`}
          </option>
        ))}
      </select>
      <button type="submit" className="btn-secondary mt-3" disabled={pending({ intent: "pause" })}>
        Pause subscription
      </button>
    </Form>
  );
}
