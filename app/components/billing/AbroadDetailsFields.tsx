import { useId } from "react";
import { Field } from "~/components/forms";
import { NameAddressFields } from "./NameAddressFields";
import type { FieldErrors } from "~/lib/auth-forms";
import { COUNTRIES_ABROAD } from "~/lib/countries";

export interface AbroadDefaults {
  name: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  postalCode: string;
  countryCode: string;
  taxId: string;
}

/**
 * A buyer abroad's details (issue 56; validated by abroadDetailsSchema): the address and country
 * the export invoice prints, and a business's VAT or tax id. No state and no GSTIN: no Indian GST.
 */
export function AbroadDetailsFields({
  defaults,
  errors,
}: {
  defaults: AbroadDefaults;
  errors: FieldErrors;
}) {
  const countryId = useId();
  const countryErrors = errors.countryCode;
  const detail = (name: keyof AbroadDefaults) => ({
    name,
    defaultValue: defaults[name],
    errors: errors[name],
  });
  return (
    <fieldset className="grid gap-x-4 sm:grid-cols-2">
      <legend className="mb-3 text-sm text-slate-300">
        For your export invoice: no Indian GST is charged to buyers outside India. A business may
        add its VAT or tax id.
      </legend>
      <NameAddressFields defaults={defaults} errors={errors} />
      <Field
        label="Postal code (if your country has one)"
        {...detail("postalCode")}
        autoComplete="postal-code"
      />
      <div>
        <label htmlFor={countryId} className="block text-sm font-medium text-slate-200">
          Country
        </label>
        <select
          id={countryId}
          name="countryCode"
          defaultValue={defaults.countryCode}
          required
          autoComplete="country"
          aria-invalid={countryErrors?.length ? true : undefined}
          aria-describedby={`${countryId}-error`}
          className={`mt-1 block w-full rounded-lg border bg-slate-900 px-3 py-2 text-slate-100 focus:border-green-400 focus:outline-none ${
            countryErrors?.length ? "border-red-400" : "border-slate-700"
          }`}
        >
          <option value="">Choose…</option>
          {COUNTRIES_ABROAD.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
        <p id={`${countryId}-error`} className="mt-1 min-h-5 text-sm text-red-300">
          {countryErrors?.join(" ")}
        </p>
      </div>
      <Field
        label="VAT or tax id (optional)"
        {...detail("taxId")}
        autoComplete="off"
        spellCheck={false}
        hint="Printed on your invoice, e.g. DE123456789"
      />
    </fieldset>
  );
}

/** The form's first values: a buyer abroad's saved details, or their name alone. */
export function abroadDefaults(
  profile: {
    name: string;
    addressLine1: string;
    addressLine2: string;
    city: string;
    postalCode: string;
    countryCode: string;
    taxId: string | null;
  } | null,
  fallbackName: string,
): AbroadDefaults {
  const abroad = profile && profile.countryCode !== "IN" ? profile : null;
  return {
    name: profile?.name ?? fallbackName,
    addressLine1: abroad?.addressLine1 ?? "",
    addressLine2: abroad?.addressLine2 ?? "",
    city: abroad?.city ?? "",
    postalCode: abroad?.postalCode ?? "",
    countryCode: abroad?.countryCode ?? "",
    taxId: abroad?.taxId ?? "",
  };
}
