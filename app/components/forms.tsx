import {
  createContext,
  type FormHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useContext,
  useId,
  useState,
} from "react";
import { useRevealWhenShown } from "~/lib/reveal";
import { useHydrated } from "~/lib/use-hydrated";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  errors?: string[];
  hint?: string;
}

/** A labelled input with its hint and every error, wired for screen readers. */
export function Field({ label, name, errors, hint, className, ...input }: FieldProps) {
  return (
    <LabelledControl label={label} errors={errors} hint={hint} className={className}>
      {(wiring) => <input name={name} {...wiring} {...input} />}
    </LabelledControl>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  name: string;
  errors?: string[];
  hint?: string;
  children: ReactNode;
}

/** A labelled select, wired as `Field` is. */
export function SelectField({ label, name, errors, hint, className, ...select }: SelectFieldProps) {
  return (
    <LabelledControl label={label} errors={errors} hint={hint} className={className}>
      {(wiring) => <select name={name} {...wiring} {...select} />}
    </LabelledControl>
  );
}

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  name: string;
  errors?: string[];
  hint?: string;
}

/** A labelled text area, wired as `Field` is. */
export function TextAreaField({
  label,
  name,
  errors,
  hint,
  className,
  ...textarea
}: TextAreaFieldProps) {
  return (
    <LabelledControl label={label} errors={errors} hint={hint} className={className}>
      {(wiring) => <textarea name={name} rows={6} {...wiring} {...textarea} />}
    </LabelledControl>
  );
}

/**
 * A field's errors until the person edits the field (issue 34): they were about the value that was
 * sent, so they go as soon as it changes. The next answer's errors (a new array) show again.
 * Returns the errors to show and the handler for the field's `input` events.
 */
export function useErrorsUntilEdited(
  errors: string[] | undefined,
): [shown: string[] | undefined, edited: () => void] {
  const [editedFor, setEditedFor] = useState<string[] | undefined>(undefined);
  const shown = errors?.length && errors !== editedFor ? errors : undefined;
  return [shown, () => setEditedFor(errors)];
}

interface Wiring {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  className: string;
}

/** The label, hint and errors around one control, and the attributes that tie them to it. */
function LabelledControl({
  label,
  errors,
  hint,
  className,
  children,
}: {
  label: string;
  errors?: string[];
  hint?: string;
  className?: string;
  children: (wiring: Wiring) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [shownErrors, edited] = useErrorsUntilEdited(errors);
  const invalid = Boolean(shownErrors);
  // While an error shows, it replaces the hint: both usually say the same thing.
  const showHint = Boolean(hint) && !invalid;
  const describedBy =
    [showHint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    // The control's input events bubble here: editing it clears its errors.
    <div className={className} onInput={edited}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        {label}
      </label>
      {children({
        id,
        "aria-invalid": invalid || undefined,
        "aria-describedby": describedBy,
        className: `mt-1 block w-full rounded-lg border bg-slate-900 px-3 py-2 text-slate-100 placeholder:text-slate-500 focus:border-green-400 focus:outline-none ${
          invalid ? "border-red-400" : "border-slate-700"
        }`,
      })}
      {showHint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      {/* Always rendered so that showing an error does not shift the layout. */}
      <p id={errorId} className="mt-1 min-h-5 text-sm text-red-300">
        {shownErrors?.join(" ")}
      </p>
    </div>
  );
}

/**
 * The form-level message: an alert for failures, a status for good news. The answer to a submit
 * is scrolled into view when it is outside the window (useRevealWhenShown).
 */
export function FormMessage({
  message,
  tone,
}: {
  message: string | null;
  tone: "error" | "success";
}) {
  const element = useRevealWhenShown<HTMLParagraphElement>(message);
  if (!message) return null;
  return tone === "error" ? (
    <p
      ref={element}
      role="alert"
      className="rounded-lg border border-red-500/40 bg-red-950/40 px-3 py-2 text-sm text-red-200"
    >
      {message}
    </p>
  ) : (
    <p
      ref={element}
      role="status"
      className="rounded-lg border border-green-500/40 bg-green-950/40 px-3 py-2 text-sm text-green-200"
    >
      {message}
    </p>
  );
}

const ScriptOnly = createContext(false);

/**
 * A form that only works with JavaScript: its submit handler calls the auth API from the browser.
 * Until React has hydrated the page its submit button is disabled, which also stops Enter from
 * submitting it: natively, a form without a method would send its fields, passwords included, in
 * the page's URL. It is a POST all the same, should anything else submit it.
 */
export function ScriptForm({ children, ...form }: FormHTMLAttributes<HTMLFormElement>) {
  return (
    <ScriptOnly.Provider value={true}>
      <form method="post" {...form}>
        {children}
        <noscript>
          <p className="mt-2 text-sm text-slate-300">
            This form needs JavaScript, which is turned off in this browser.
          </p>
        </noscript>
      </form>
    </ScriptOnly.Provider>
  );
}

/**
 * The form's submit button: disabled with a "…ing" label while the request runs (`pending`, from
 * `useFormPending`: this form's own submission), and in a `ScriptForm` until the page's scripts
 * run. `waiting` disables it without those words, while what it would send is being redrawn.
 */
export function SubmitButton({
  pending,
  waiting = false,
  label,
  pendingLabel,
  className = "btn-primary w-full",
}: {
  pending: boolean;
  waiting?: boolean;
  label: string;
  pendingLabel: string;
  className?: string;
}) {
  const needsScript = useContext(ScriptOnly);
  const hydrated = useHydrated();
  const disabled = pending || waiting || (needsScript && !hydrated);
  return (
    <button type="submit" className={className} disabled={disabled} aria-disabled={disabled}>
      {pending ? pendingLabel : label}
    </button>
  );
}

type NamedFieldProps = Omit<FieldProps, "label" | "name"> & { label?: string; name?: string };

/** The email field of the sign-in forms. */
export function EmailField({ label = "Email", name = "email", ...rest }: NamedFieldProps) {
  return <Field label={label} name={name} type="email" autoComplete="email" required {...rest} />;
}

/** A password field: `current-password` to sign in, `new-password` to choose one. */
export function PasswordField({
  label = "Password",
  name = "password",
  autoComplete = "current-password",
  ...rest
}: NamedFieldProps) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={autoComplete}
      required
      {...rest}
    />
  );
}
