import { FormMessage } from "~/components/forms";
import type { FormAnswer } from "./form-answer";

/** What the action answered this form, success or refusal (nothing before it was sent). */
export function AnswerMessage({
  answer,
  className,
}: {
  answer: FormAnswer | null;
  /** Wraps the message in a <div> of this class (spacing in a section). */
  className?: string;
}) {
  if (!answer) return null;
  const message = <FormMessage tone={answer.ok ? "success" : "error"} message={answer.message} />;
  return className ? <div className={className}>{message}</div> : message;
}
