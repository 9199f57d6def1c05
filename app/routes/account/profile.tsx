import { Form, useSearchParams } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { z } from "zod";
import { updateName } from "~/.server/account/account.server";
import { changeEmailSchema, requestEmailChange } from "~/.server/account/change-email.server";
import { hasPassword } from "~/.server/account/session-origin.server";
import { confirmIdentity, stepUpSchema, stepUpState } from "~/.server/account/step-up.server";
import { requireSession } from "~/.server/auth/session";
import { done, formAction, refuse } from "~/.server/forms/action.server";
import { answerFor } from "~/components/account/form-answer";
import { StepUpForm } from "~/components/account/StepUpForm";
import { EmailField, Field, FormMessage, PasswordField } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => pageMeta("Profile", "Your name and email address.");

export async function loader({ context }: Route.LoaderArgs) {
  const session = requireSession(context);
  const [withPassword, stepUp] = await Promise.all([
    hasPassword(session.user.id),
    stepUpState(session),
  ]);
  return { name: session.user.name, email: session.user.email, hasPassword: withPassword, stepUp };
}

const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("update-name"),
    name: z
      .string()
      .trim()
      .min(1, { error: "Enter your name." })
      .max(100, { error: "Use at most 100 characters." }),
  }),
  changeEmailSchema,
  stepUpSchema,
]);

export async function action(args: Route.ActionArgs) {
  const { request } = args;
  return formAction(args, schema, async (input, session) => {
    switch (input.intent) {
      case "update-name": {
        const outcome = await updateName(request, input.name);
        return outcome.ok
          ? done(input.intent, outcome.message)
          : refuse(input.intent, outcome.message);
      }
      case "change-email":
        return requestEmailChange(request, session, input);
      case "step-up":
        return confirmIdentity(request, session, input);
    }
  });
}

/**
 * Both links of an email change land here with `?email=confirmed&to=<new address>`: the first
 * (from the old address) before the change, the second once it is made.
 */
function emailChangeNotice(params: URLSearchParams, email: string) {
  if (params.get("error"))
    return {
      tone: "error" as const,
      message: "This link has expired or was already used. Ask for a new one below.",
    };
  const state = params.get("email");
  const to = params.get("to");
  if (state === "changed" || (state === "confirmed" && to?.toLowerCase() === email.toLowerCase()))
    return { tone: "success" as const, message: `Your email address is now ${email}.` };
  if (state === "confirmed" && to)
    return {
      tone: "success" as const,
      message: `Thank you. Now open the link we sent to ${to} to finish the change.`,
    };
  return null;
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const pending = usePendingForms();
  const name = answerFor(actionData, "update-name");
  const email = answerFor(actionData, "change-email");
  const notice = emailChangeNotice(params, loaderData.email);
  return (
    <div className="space-y-6">
      <PageHeader title="Profile" lead="How we address you, and where we write to you." />
      {notice ? <FormMessage tone={notice.tone} message={notice.message} /> : null}
      <StepUpForm state={loaderData.stepUp} answer={answerFor(actionData, "step-up")} />
      <Section id="name-heading" title="Name">
        {name?.message ? (
          <FormMessage tone={name.ok ? "success" : "error"} message={name.message} />
        ) : null}
        <Form method="post" className="max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="update-name" />
          <Field
            label="Name"
            name="name"
            autoComplete="name"
            defaultValue={loaderData.name}
            required
            errors={name?.errors?.name}
          />
          <button
            type="submit"
            className="btn-primary"
            disabled={pending({ intent: "update-name" })}
          >
            Save name
          </button>
        </Form>
      </Section>
      <Section id="email-heading" title="Email address">
        <p className="text-slate-300">
          Now: <strong className="text-white">{loaderData.email}</strong>. To change it, confirm
          from a link we send to this address, then from a link we send to the new one.
        </p>
        {email?.message ? (
          <div className="mt-4">
            <FormMessage tone={email.ok ? "success" : "error"} message={email.message} />
          </div>
        ) : null}
        <Form method="post" className="mt-4 max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="change-email" />
          <EmailField label="New email address" errors={email?.errors?.email} />
          {loaderData.hasPassword ? (
            <PasswordField label="Your password" errors={email?.errors?.password} />
          ) : (
            <p className="text-sm text-slate-400">
              You sign in with Google: this works within 10 minutes of signing in.
            </p>
          )}
          <button
            type="submit"
            className="btn-secondary"
            disabled={pending({ intent: "change-email" })}
          >
            Send confirmation link
          </button>
        </Form>
      </Section>
    </div>
  );
}
