import { Form } from "react-router";
import { LicenceFileFields } from "~/components/account/LicenceFileFields";
import { Section } from "~/components/Section";
import { formatDate } from "~/lib/dates";
import { FormMessage } from "~/components/forms";

export interface LicenceFileRow {
  id: string;
  name: string;
  expiresAt: string;
}

/**
 * Licence files for computers that cannot reach the site (issue 57, point 3): a form that
 * downloads one (a document post, so the browser saves the file), and the files still valid.
 */
export function LicenceFiles({
  files,
  refusal,
}: {
  files: LicenceFileRow[];
  /** Why the last file was not made, in the site's words (from a code in the address). */
  refusal: string | null;
}) {
  return (
    <Section id="licence-files" title="Computers without internet">
      <p className="text-slate-300">
        A licence file lets Pro run on a computer that never reaches this site (a lab or a factory
        floor). It is bound to that computer&apos;s fingerprint (the app shows it under Help →
        Licence), ends when you choose but never after what is paid, and holds one of your device
        slots until then. It cannot be withdrawn before it ends: choose its length with care.
      </p>
      {refusal ? <FormMessage tone="error" message={refusal} /> : null}
      {files.length > 0 ? (
        <ul className="mt-4 divide-y divide-slate-800" data-testid="licence-files">
          {files.map((file) => (
            <li key={file.id} className="py-2 text-slate-200">
              <span className="font-medium text-white wrap-anywhere">{file.name}</span>
              {` · valid until ${formatDate(file.expiresAt)}`}
            </li>
          ))}
        </ul>
      ) : null}
      {/* A document post to a resource route: the answer is a file the browser saves. */}
      <Form
        method="post"
        action="/account/licence-file"
        reloadDocument
        className="mt-4 grid gap-x-4 sm:grid-cols-3"
      >
        <LicenceFileFields
          nameLabel="Computer's name"
          fingerprintLabel="Fingerprint"
          validityLabel="Valid for"
        />
        <button type="submit" className="btn-secondary sm:col-span-3 sm:justify-self-start">
          Download licence file
        </button>
      </Form>
    </Section>
  );
}
