import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { type FieldErrors, fieldErrors } from "~/lib/auth-forms";
import type { AuthResult } from "~/lib/auth-client";

export type Message = { text: string; tone: "error" | "success" } | null;

/**
 * The state every sign-in form shares: field errors from its zod schema (checked in the browser
 * first, the server checks again), one message, and a pending flag while the request runs.
 */
export function useAuthForm() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<Message>(null);
  const [pending, setPending] = useState(false);

  async function submit<S extends z.ZodType>(
    event: FormEvent<HTMLFormElement>,
    schema: S,
    send: (values: z.infer<S>) => Promise<AuthResult>,
    onSuccess: (values: z.infer<S>, result: AuthResult & { ok: true }) => Promise<void> | void,
  ) {
    event.preventDefault();
    const parsed = schema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      setMessage(null);
      return;
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const result = await send(parsed.data);
    setPending(false);
    if (!result.ok) {
      setMessage({ text: result.message, tone: "error" });
      return;
    }
    await onSuccess(parsed.data, result);
  }

  return { errors, message, setMessage, pending, submit };
}
