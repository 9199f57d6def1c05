import { Form } from "react-router";
import { PasswordField } from "~/components/forms";
import { Section } from "~/components/Section";
import { AnswerMessage } from "./AnswerMessage";
import type { FormAnswer } from "./form-answer";

const DANGER =
  "inline-flex items-center rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-500";

/**
 * Deleting the account: with the password, or (no password: Google only) through a link we mail.
 * `confirmToken` is that link's token: the page then asks once more, since a GET never deletes.
 */
export function DeleteAccountForm({
  hasPassword,
  email,
  confirmToken,
  answer,
  busy,
}: {
  hasPassword: boolean;
  email: string;
  confirmToken: string | null;
  answer: FormAnswer | null;
  busy: boolean;
}) {
  const errors = answer?.errors ?? {};
  return (
    <Section id="delete" title="Delete account">
      <p className="text-slate-300">
        This erases your profile, devices, usage and messages, and signs you out everywhere. Tax
        invoices already issued are kept as the law requires. It cannot be undone.
      </p>
      <AnswerMessage answer={answer} className="mt-4" />
      {confirmToken ? (
        <Form method="post" className="mt-4 max-w-md space-y-2">
          <input type="hidden" name="intent" value="confirm-delete" />
          <input type="hidden" name="token" value={confirmToken} />
          <p className="text-slate-300">{`You opened the link we sent to ${email}.`}</p>
          <button type="submit" className={DANGER} disabled={busy}>
            Delete my account now
          </button>
        </Form>
      ) : (
        <Form method="post" className="mt-4 max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="delete-account" />
          {hasPassword ? (
            <PasswordField label="Your password, to confirm" errors={errors.password} />
          ) : (
            <p className="text-slate-300">{`We will send a link to ${email} to confirm.`}</p>
          )}
          <button type="submit" className={DANGER} disabled={busy}>
            {hasPassword ? "Delete my account" : "Email me the link"}
          </button>
        </Form>
      )}
    </Section>
  );
}
