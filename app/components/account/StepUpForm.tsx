import { Form } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { Field, FormMessage, PasswordField, SubmitButton } from "~/components/forms";
import { Section } from "~/components/Section";
import { AnswerMessage } from "./AnswerMessage";
import type { FormAnswer } from "./form-answer";

export type StepUpState =
  { required: false } | { required: true; hasPassword: boolean; twoFactor: boolean };

/**
 * "Confirm it's you": shown in a browser that the desktop app signed in, which never entered a
 * password. Sensitive actions wait for it (docs/decisions/0018).
 */
export function StepUpForm({ state, answer }: { state: StepUpState; answer: FormAnswer | null }) {
  const checking = useFormPending({ intent: "step-up" });
  if (!state.required)
    return answer?.ok ? <FormMessage tone="success" message={answer.message} /> : null;
  const errors = answer?.errors ?? {};
  return (
    <Section id="step-up" title="Confirm it's you">
      <p className="text-slate-300">
        This browser was signed in from the desktop app. Before you change your email, password or
        two-factor settings, sign out browsers or devices, or delete your account, confirm it is
        you.
      </p>
      <AnswerMessage answer={answer} className="mt-4" />
      {state.hasPassword ? (
        <Form method="post" className="mt-4 max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="step-up" />
          <PasswordField label="Your password" errors={errors.password} />
          {state.twoFactor ? (
            <Field
              label="Code from your authenticator app"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              errors={errors.code}
            />
          ) : null}
          <SubmitButton
            pending={checking}
            label="Confirm"
            pendingLabel="Checking…"
            className="btn-primary"
          />
        </Form>
      ) : (
        <p className="mt-4 text-slate-300">
          This account has no password. Sign out, then sign in again with Google to do this.
        </p>
      )}
    </Section>
  );
}
