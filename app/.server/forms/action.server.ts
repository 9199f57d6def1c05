/**
 * The one way a form action reads its input: who is asking (the guard already admitted them;
 * `role: "admin"` checks again), the form validated with one zod schema, and every field error
 * returned at once with a 400. Actions then return `done(...)` or `refuse(...)`; an AppError thrown
 * by domain code is answered the same way, with its status.
 */
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { fieldErrors, type FieldErrors } from "~/lib/auth-forms";
import { isAdmin, requireSession, type Session } from "../auth/session";
import { isAppError } from "../http/errors";

export interface FormResult {
  /** Which form on the page answered (pages with several forms show the message beside it). */
  intent: string;
  ok: boolean;
  message: string;
  errors?: FieldErrors;
}

export function done(intent: string, message: string) {
  return data<FormResult>({ intent, ok: true, message });
}

export function refuse(intent: string, message: string, status = 400) {
  return data<FormResult>({ intent, ok: false, message }, { status });
}

/** A refusal that belongs to one field (a wrong password): shown under it, and above the form. */
export function refuseField(intent: string, field: string, message: string, status = 400) {
  return data<FormResult>(
    { intent, ok: false, message, errors: { [field]: [message] } },
    { status },
  );
}

type Args = { request: Request; context: Readonly<RouterContextProvider> };

export async function formAction<S extends z.ZodType, R>(
  { request, context }: Args,
  schema: S,
  run: (input: z.output<S>, session: Session) => Promise<R>,
  options: {
    role?: "admin";
    /**
     * The message when the form does not parse and no field of it is shown to correct (hidden
     * fields and fixed choices, e.g. a row's buttons): "Check the highlighted fields" otherwise.
     */
    invalidMessage?: string;
  } = {},
): Promise<R | ReturnType<typeof refuse>> {
  const session = requireSession(context);
  if (options.role === "admin" && !isAdmin(session))
    return refuse("form", "This action is for administrators.", 403);
  const values: Record<string, string> = {};
  for (const [key, value] of await request.formData())
    if (typeof value === "string") values[key] = value;
  const intent = values.intent ?? "form";
  const parsed = schema.safeParse(values);
  if (!parsed.success)
    return data<FormResult>(
      {
        intent,
        ok: false,
        message: options.invalidMessage ?? "Check the highlighted fields.",
        errors: fieldErrors(parsed.error),
      },
      { status: 400 },
    );
  try {
    return await run(parsed.data, session);
  } catch (error) {
    // Domain code refuses with an AppError: its status and message, beside its field if it names one.
    if (!isAppError(error)) throw error;
    return error.field
      ? refuseField(intent, error.field, error.message, error.status)
      : refuse(intent, error.message, error.status);
  }
}
