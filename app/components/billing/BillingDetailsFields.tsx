import { useId } from "react";
import { Field } from "~/components/forms";
import { NameAddressFields } from "./NameAddressFields";
import type { FieldErrors } from "~/lib/auth-forms";
import { BILLING_STATES, GSTIN_EXAMPLE } from "~/lib/gst";

export interface BillingDefaults {
  name: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  postalCode: string;
  stateCode: string;
  gstin: string;
}

/** The billing details fields, shared by checkout and /billing (validated by billingDetailsSchema). */
export function BillingDetailsFields({
  defaults,
  errors,
}: {
  defaults: BillingDefaults;
  errors: FieldErrors;
}) {
  const stateId = useId();
  const stateErrors = errors.stateCode;
  /** A field's name with its default and its errors. */
  const detail = (name: keyof BillingDefaults) => ({
    name,
    defaultValue: defaults[name],
    errors: errors[name],
  });
  return (
    <fieldset className="grid gap-x-4 sm:grid-cols-2">
      <legend className="mb-3 text-sm text-slate-300">
        For your GST tax invoice. Add a GSTIN to claim input tax credit.
      </legend>
      <NameAddressFields defaults={defaults} errors={errors} />
      <Field
        label="PIN code"
        {...detail("postalCode")}
        inputMode="numeric"
        autoComplete="postal-code"
        required
      />
      <div>
        <label htmlFor={stateId} className="block text-sm font-medium text-slate-200">
          State or union territory
        </label>
        <select
          id={stateId}
          name="stateCode"
          defaultValue={defaults.stateCode}
          required
          aria-invalid={stateErrors?.length ? true : undefined}
          aria-describedby={`${stateId}-error`}
          className={`mt-1 block w-full rounded-lg border bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none ${
            stateErrors?.length ? "border-red-400" : "border-slate-700"
          }`}
        >
          <option value="">Choose…</option>
          {BILLING_STATES.map((state) => (
            <option key={state.code} value={state.code}>
              {state.name}
            </option>
          ))}
        </select>
        <p id={`${stateId}-error`} className="mt-1 min-h-5 text-sm text-red-300">
          {stateErrors?.join(" ")}
        </p>
      </div>
      <Field
        label="GSTIN (optional)"
        {...detail("gstin")}
        autoComplete="off"
        spellCheck={false}
        hint={`15 characters, e.g. ${GSTIN_EXAMPLE}`}
      />
    </fieldset>
  );
}

export function billingDefaults(
  profile:
    | (Partial<Omit<BillingDefaults, "gstin">> & { gstin?: string | null; countryCode?: string })
    | null,
  fallbackName: string,
): BillingDefaults {
  // An address abroad is not an Indian one: only the name carries over to the Indian form.
  if (profile?.countryCode && profile.countryCode !== "IN")
    return billingDefaults({ name: profile.name ?? fallbackName }, fallbackName);
  return {
    name: profile?.name ?? fallbackName,
    addressLine1: profile?.addressLine1 ?? "",
    addressLine2: profile?.addressLine2 ?? "",
    city: profile?.city ?? "",
    postalCode: profile?.postalCode ?? "",
    stateCode: profile?.stateCode ?? "",
    gstin: profile?.gstin ?? "",
  };
}
