/**
 * The cancellation step (issue 59, point 1; decision 0071), for a person's subscription and for a
 * team's seats: what cancelling does, an optional reason, and at most one offer, with "Cancel my
 * subscription" beside the offer's button in the same style. One form: whichever button is
 * pressed, the reason goes with it. Works without JavaScript.
 */
import { Form, Link } from "react-router";
import { Field, FormMessage } from "~/components/forms";
import { usePendingForms } from "~/components/use-form-pending";
import {
  CANCEL_BUTTON,
  CANCEL_REASON_LABELS,
  CANCEL_REASONS,
  type CancelOfferView,
} from "~/lib/cancel-flow";

export interface CancelFlowAnswer {
  ok: boolean;
  message: string;
  errors?: Record<string, string[] | undefined>;
}

export function CancelFlowForm({
  title,
  consequences,
  offer,
  backTo,
  answer,
  onCancel,
}: {
  title: string;
  consequences: string;
  offer: CancelOfferView | null;
  /** Where "Back" goes: the subscription's page. */
  backTo: string;
  answer?: CancelFlowAnswer;
  /** Before the form posts "Cancel my subscription" (the analytics event). */
  onCancel?: () => void;
}) {
  const pending = usePendingForms();
  const busy = pending({ intent: "cancel" }) || pending({ intent: "take-offer" });
  // Compact on purpose: at 390 px, with the consent banner showing, the offer and both buttons
  // are in view without scrolling (tests/e2e/cancel-flow.spec.ts measures it).
  return (
    <Form method="post" className="space-y-3">
      <h1 className="text-2xl font-bold tracking-tight text-white">{title}</h1>
      {answer?.message ? (
        <FormMessage tone={answer.ok ? "success" : "error"} message={answer.message} />
      ) : null}
      <p className="text-slate-200" data-testid="cancel-consequences">
        {consequences}
      </p>
      <div>
        <label htmlFor="cancel-reason" className="sr-only">
          Why are you leaving? (optional)
        </label>
        <select
          id="cancel-reason"
          name="reason"
          defaultValue=""
          aria-invalid={answer?.errors?.reason ? true : undefined}
          className="block w-full max-w-md rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none"
        >
          <option value="">Why are you leaving? (optional)</option>
          {CANCEL_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {CANCEL_REASON_LABELS[reason]}
            </option>
          ))}
        </select>
      </div>
      <details className="text-sm text-slate-300">
        <summary className="cursor-pointer">Add a comment (optional)</summary>
        <Field
          className="mt-2 max-w-md"
          label="Anything else? (optional)"
          name="details"
          maxLength={500}
          autoComplete="off"
          errors={answer?.errors?.details}
        />
      </details>
      {offer ? (
        <section
          aria-labelledby="cancel-offer-heading"
          className="rounded-lg border border-slate-700 bg-slate-900/60 p-3"
          data-testid="cancel-offer"
        >
          <h2 id="cancel-offer-heading" className="font-semibold text-white">
            {offer.title}
          </h2>
          <p className="mt-1 text-sm text-slate-300">{offer.text}</p>
        </section>
      ) : null}
      {/* The same class and width for both: neither choice is pushed over the other. */}
      <div
        className={`grid max-w-md gap-3 ${offer ? "grid-cols-2" : "grid-cols-1"}`}
        data-testid="cancel-choices"
      >
        {offer ? (
          <button
            type="submit"
            name="intent"
            value="take-offer"
            className="btn-secondary w-full"
            disabled={busy}
          >
            {offer.button}
          </button>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="cancel"
          className="btn-secondary w-full"
          disabled={busy}
          onClick={onCancel}
        >
          {CANCEL_BUTTON}
        </button>
      </div>
      <p className="text-sm text-slate-300">
        <Link to={backTo} className="link">
          Back, without changing anything
        </Link>
      </p>
    </Form>
  );
}
