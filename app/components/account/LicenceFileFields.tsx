/**
 * The fields of a licence file for a computer without internet (issue 57, point 3): its name,
 * the fingerprint the app shows on it and how long the file is valid. The Security page's form
 * (a person's file) and the team page's (a team's) both use them.
 */
import { Field, SelectField } from "~/components/forms";

/** How long a licence file may be valid. */
const VALIDITY = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 366, label: "Until the paid period ends" },
];

export function LicenceFileFields({
  nameLabel,
  fingerprintLabel,
  validityLabel,
}: {
  nameLabel: string;
  fingerprintLabel: string;
  validityLabel: string;
}) {
  return (
    <>
      <input type="hidden" name="intent" value="licence-file" />
      <Field label={nameLabel} name="name" required />
      <Field
        label={fingerprintLabel}
        name="fingerprint"
        autoComplete="off"
        spellCheck={false}
        required
      />
      <SelectField label={validityLabel} name="days" defaultValue="30">
        {VALIDITY.map((choice) => (
          <option key={choice.days} value={choice.days}>
            {choice.label}
          </option>
        ))}
      </SelectField>
    </>
  );
}
