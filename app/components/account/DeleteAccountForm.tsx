import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { formatDate } from "~/lib/dates";
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
  paidPlan,
  answer,
}: {
  hasPassword: boolean;
  email: string;
  confirmToken: string | null;
  /** A subscription that could still charge: deleting cancels it at once (issue 34, point 7). */
  paidPlan: { name: string; paidUntil: string | null } | null;
  answer: FormAnswer | null;
}) {
  const pending = usePendingForms();
  const errors = answer?.errors ?? {};
  return (
    <Section id="delete" title="Delete account">
      {paidPlan ? (
        <p
          className="rounded-lg border border-amber-400/40 bg-amber-400/10 p-3 text-amber-100"
          data-testid="delete-paid-plan"
        >
          {`You pay for ${paidPlan.name}${paidPlan.paidUntil ? `, paid up to ${formatDate(paidPlan.paidUntil)}` : ""}. Deleting the account cancels it at Razorpay at once: Pro ends now, nothing more is charged, and the rest of the period is not refunded. Within 7 days of a first payment, ask for a refund before you delete.`}
        </p>
      ) : null}
      <ul
        className="mt-3 list-inside list-disc space-y-1 text-slate-300"
        data-testid="delete-what-happens"
      >
        <li>
          Your profile, sign-in methods, browser sessions, desktop devices (their apps are signed
          out), usage, feedback and support tickets are erased.
        </li>
        <li>
          Tax invoices and credit notes already issued are kept for eight years, as the CGST Act
          requires, with the billing name, address and GSTIN printed on them, but no longer linked
          to any account. The payment records behind them are kept with them.
        </li>
        <li>
          It cannot be undone.{" "}
          <a href="/account/security/export" className="link" download>
            Export your data
          </a>{" "}
          first if you want a copy.
        </li>
      </ul>
      <AnswerMessage answer={answer} className="mt-4" />
      {confirmToken ? (
        <Form method="post" className="mt-4 max-w-md space-y-2">
          <input type="hidden" name="intent" value="confirm-delete" />
          <input type="hidden" name="token" value={confirmToken} />
          <p className="text-slate-300">{`You opened the link we sent to ${email}.`}</p>
          <button type="submit" className={DANGER} disabled={pending({ intent: "confirm-delete" })}>
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
          <button type="submit" className={DANGER} disabled={pending({ intent: "delete-account" })}>
            {hasPassword ? "Delete my account" : "Email me the link"}
          </button>
        </Form>
      )}
    </Section>
  );
}
