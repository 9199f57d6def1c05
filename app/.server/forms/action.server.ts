/**
 * The one way a form action reads its input: who is asking (the guard already admitted them;
 * `role: "admin"` checks again; `who: "anyone"` for a public form, where the session may be
 * null), the form validated with one zod schema, and every field error returned at once with a
 * 400. Actions then return `done(...)` or `refuse(...)`; an AppError thrown by domain code is
 * answered the same way, with its status (and `Retry-After` when it says when to try again).
 */
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { fieldErrors, type FieldErrors } from "~/lib/auth-forms";
import { getSession, isAdmin, requireSession, type Session } from "../auth/session";
import { isAppError } from "../http/errors";

export interface FormResult {
  /** Which form on the page answered (pages with several forms show the message beside it). */
  intent: string;
  ok: boolean;
  message: string;
  errors?: FieldErrors;
  /**
   * The fields named in `echo`, as sent, on a refusal: a form posted without JavaScript is drawn
   * again by the server, and keeps what the visitor typed.
   */
  values?: Record<string, string>;
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

interface Options {
  /**
   * The message when the form does not parse and no field of it is shown to correct (hidden
   * fields and fixed choices, e.g. a row's buttons): "Check the highlighted fields" otherwise.
   */
  invalidMessage?: string;
  /** Fields sent back as typed on a refusal (never a password). */
  echo?: readonly string[];
}

/** A form behind the auth guard: the signed-in session, or an admin's with `role: "admin"`. */
export function formAction<S extends z.ZodType, R>(
  args: Args,
  schema: S,
  run: (input: z.output<S>, session: Session) => Promise<R>,
  options?: Options & { role?: "admin"; who?: "signed-in" },
): Promise<R | ReturnType<typeof refuse>>;
/** A public form: the visitor's session if they are signed in, else null. */
export function formAction<S extends z.ZodType, R>(
  args: Args,
  schema: S,
  run: (input: z.output<S>, session: Session | null) => Promise<R>,
  options: Options & { who: "anyone" },
): Promise<R | ReturnType<typeof refuse>>;
export async function formAction<S extends z.ZodType, R>(
  { request, context }: Args,
  schema: S,
  run: (input: z.output<S>, session: Session) => Promise<R>,
  options: Options & { role?: "admin"; who?: "signed-in" | "anyone" } = {},
): Promise<R | ReturnType<typeof refuse>> {
  // A public form reads the session itself: no guard ran before it.
  const session = options.who === "anyone" ? await getSession(request) : requireSession(context);
  if (options.role === "admin" && (!session || !isAdmin(session)))
    return refuse("form", "This action is for administrators.", 403);
  const values: Record<string, string> = {};
  for (const [key, value] of await request.formData())
    if (typeof value === "string") values[key] = value;
  const intent = values.intent ?? "form";
  const echoed = options.echo
    ? { values: Object.fromEntries(options.echo.map((name) => [name, values[name] ?? ""])) }
    : {};
  const parsed = schema.safeParse(values);
  if (!parsed.success)
    return data<FormResult>(
      {
        intent,
        ok: false,
        message: options.invalidMessage ?? "Check the highlighted fields.",
        errors: fieldErrors(parsed.error),
        ...echoed,
      },
      { status: 400 },
    );
  try {
    // Null only for `who: "anyone"`, whose overload types `run` to accept it.
    return await run(parsed.data, session as Session);
  } catch (error) {
    // Domain code refuses with an AppError: its status and message, beside its field if it names one.
    if (!isAppError(error)) throw error;
    return data<FormResult>(
      {
        intent,
        ok: false,
        message: error.message,
        ...(error.field ? { errors: { [error.field]: [error.message] } } : {}),
        ...echoed,
      },
      {
        status: error.status,
        headers:
          error.retryAfter === undefined
            ? undefined
            : { "Retry-After": String(Math.ceil(error.retryAfter)) },
      },
    );
  }
}
