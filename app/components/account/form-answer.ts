import type { FieldErrors } from "~/lib/auth-forms";

/** What an account page's action answers (app/.server/forms/action.server.ts FormResult). */
export interface FormAnswer {
  intent: string;
  ok: boolean;
  message: string;
  errors?: FieldErrors;
  /** The fields a refused form sent, to draw it again with what was typed. */
  values?: Record<string, string>;
}

/** The answer of one form on a page with several: only the form that was sent shows it. */
export function answerFor(
  answer: FormAnswer | null | undefined,
  ...intents: string[]
): FormAnswer | null {
  return answer && intents.includes(answer.intent) ? answer : null;
}
