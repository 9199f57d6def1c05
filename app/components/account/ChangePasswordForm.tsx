import { Form } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { PasswordField } from "~/components/forms";
import { Section } from "~/components/Section";
import { AnswerMessage } from "./AnswerMessage";
import type { FormAnswer } from "./form-answer";

/** A new password: signs out every other browser and the desktop devices. */
export function ChangePasswordForm({
  hasPassword,
  answer,
}: {
  hasPassword: boolean;
  answer: FormAnswer | null;
}) {
  const changing = useFormPending({ intent: "change-password" });
  const errors = answer?.errors ?? {};
  return (
    <Section id="password" title="Change password">
      <AnswerMessage answer={answer} />
      {hasPassword ? (
        <Form method="post" className="max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="change-password" />
          <PasswordField
            label="Current password"
            name="currentPassword"
            errors={errors.currentPassword}
          />
          <PasswordField
            label="New password"
            name="newPassword"
            autoComplete="new-password"
            hint="At least 8 characters. Your other browsers and desktop devices will be signed out."
            errors={errors.newPassword}
          />
          <button type="submit" className="btn-primary" disabled={changing}>
            Change password
          </button>
        </Form>
      ) : (
        <p className="text-slate-300">
          You sign in with Google, so this account has no password. To add one, use “Forgot
          password” on the sign-in page.
        </p>
      )}
    </Section>
  );
}
