import { Field } from "~/components/forms";
import type { FieldErrors } from "~/lib/auth-forms";

/** The fields every billing address starts with, in India or abroad (their names and hints). */
export function NameAddressFields({
  defaults,
  errors,
}: {
  defaults: { name: string; addressLine1: string; addressLine2: string; city: string };
  errors: FieldErrors;
}) {
  const detail = (name: "name" | "addressLine1" | "addressLine2" | "city") => ({
    name,
    defaultValue: defaults[name],
    errors: errors[name],
  });
  return (
    <>
      <Field
        className="sm:col-span-2"
        label="Name or company name"
        {...detail("name")}
        autoComplete="organization"
        required
      />
      <Field
        className="sm:col-span-2"
        label="Address"
        {...detail("addressLine1")}
        autoComplete="address-line1"
        required
      />
      <Field
        className="sm:col-span-2"
        label="Address line 2 (optional)"
        {...detail("addressLine2")}
        autoComplete="address-line2"
      />
      <Field label="City" {...detail("city")} autoComplete="address-level2" required />
    </>
  );
}
