import { Form } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import type { FormAnswer } from "~/components/account/form-answer";
import { FormMessage, TextAreaField } from "~/components/forms";

/**
 * One message form of a ticket (the customer's reply, the team's reply or internal note): the
 * answer above it, the text kept on a refusal and cleared once sent (a new `sentCount` remounts
 * the field), the same limits as `ticketMessageSchema`.
 */
export function MessageForm({
  intent,
  label,
  hint,
  submitLabel,
  answer,
  sentCount,
  primary = true,
}: {
  intent: string;
  label: string;
  hint?: string;
  submitLabel: string;
  /** This form's answer (answerFor), if it was the one sent. */
  answer: FormAnswer | null;
  /** Changes when a message was added: the field starts empty again. */
  sentCount: number;
  primary?: boolean;
}) {
  const sending = useFormPending({ intent });
  return (
    <>
      {answer?.message ? (
        <div className="mb-4">
          <FormMessage tone={answer.ok ? "success" : "error"} message={answer.message} />
        </div>
      ) : null}
      <Form method="post" className="max-w-2xl space-y-2" noValidate>
        <input type="hidden" name="intent" value={intent} />
        <TextAreaField
          key={answer?.ok ? sentCount : intent}
          label={label}
          name="message"
          required
          minLength={10}
          maxLength={5000}
          hint={hint}
          defaultValue={answer && !answer.ok ? (answer.values?.message ?? "") : ""}
          errors={answer?.errors?.message}
        />
        <button
          type="submit"
          className={primary ? "btn-primary" : "btn-secondary"}
          disabled={sending}
        >
          {sending ? "Sending…" : submitLabel}
        </button>
      </Form>
    </>
  );
}
