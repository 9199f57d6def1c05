import { type FormEvent, useState } from "react";
import { useActionData } from "react-router";
import type { z } from "zod";
import { type AuthFormResult, type FieldErrors, fieldErrors } from "~/lib/auth-forms";
import { useFormPending } from "~/components/use-form-pending";

/**
 * For one form of the sign-in page: the page action's answer when it was to this form's intents,
 * whether one of its posts is under way, and the field errors to show. Nothing waits for the
 * page's scripts: the forms are plain posts, checked by the action; once React runs, `check`
 * applies the same rules before sending, so a mistyped field is pointed out at once.
 */
export function useAuthAction(...intents: string[]) {
  const result = useActionData<AuthFormResult>();
  const [checked, setChecked] = useState<FieldErrors | null>(null);
  const pending = useFormPending({ intent: intents });
  const mine = result && intents.includes(result.intent) ? result : undefined;

  const check = (schema: z.ZodType) => (event: FormEvent<HTMLFormElement>) => {
    const parsed = schema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
    if (parsed.success) {
      setChecked(null);
      return;
    }
    event.preventDefault();
    setChecked(fieldErrors(parsed.error));
  };

  return {
    result: mine,
    errors: checked ?? mine?.errors ?? {},
    pending,
    check,
  };
}
