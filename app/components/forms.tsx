import { type InputHTMLAttributes, useId } from "react";

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  name: string;
  errors?: string[];
  hint?: string;
}

/** A labelled input with its hint and every error, wired for screen readers. */
export function Field({ label, name, errors, hint, className, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const invalid = Boolean(errors?.length);
  // While an error shows, it replaces the hint: both usually say the same thing.
  const showHint = Boolean(hint) && !invalid;
  const describedBy =
    [showHint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={`mt-1 block w-full rounded-lg border bg-slate-900 px-3 py-2 text-slate-100 placeholder:text-slate-500 focus:border-green-400 focus:outline-none ${
          invalid ? "border-red-400" : "border-slate-700"
        }`}
        {...input}
      />
      {showHint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-400">
          {hint}
        </p>
      ) : null}
      {/* Always rendered so that showing an error does not shift the layout. */}
      <p id={errorId} className="mt-1 min-h-5 text-sm text-red-300">
        {errors?.join(" ")}
      </p>
    </div>
  );
}

/** The form-level message: an alert for failures, a status for good news. */
export function FormMessage({
  message,
  tone,
}: {
  message: string | null;
  tone: "error" | "success";
}) {
  if (!message) return null;
  return tone === "error" ? (
    <p
      role="alert"
      className="rounded-lg border border-red-500/40 bg-red-950/40 px-3 py-2 text-sm text-red-200"
    >
      {message}
    </p>
  ) : (
    <p
      role="status"
      className="rounded-lg border border-green-500/40 bg-green-950/40 px-3 py-2 text-sm text-green-200"
    >
      {message}
    </p>
  );
}

/** The form's submit button: disabled with a "…ing" label while the request runs. */
export function SubmitButton({
  pending,
  label,
  pendingLabel,
  className = "btn-primary w-full",
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
  className?: string;
}) {
  return (
    <button type="submit" className={className} disabled={pending} aria-disabled={pending}>
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
