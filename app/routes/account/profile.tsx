import { data, Form, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import { requestEmailChange, updateName } from "~/.server/account/account.server";
import { requireSession } from "~/.server/auth/session";
import { Field, FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { emailSchema } from "~/lib/auth-forms";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => pageMeta("Profile", "Your name and email address.");

export function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  return { name: user.name, email: user.email };
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
  z.object({ intent: z.literal("change-email"), email: emailSchema }),
]);

type Result = { intent: string; ok: boolean; message: string; errors?: Record<string, string[]> };

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = requireSession(context);
  const values = Object.fromEntries(await request.formData());
  const parsed = schema.safeParse(values);
  const intent = typeof values.intent === "string" ? values.intent : "form";
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (errors[String(issue.path[0])] ??= []).push(issue.message);
    return data<Result>({ intent, ok: false, message: "", errors }, { status: 400 });
  }
  if (parsed.data.intent === "update-name") {
    const outcome = await updateName(request, parsed.data.name);
    return data<Result>({ intent, ...outcome }, { status: outcome.ok ? 200 : 400 });
  }
  if (parsed.data.email.toLowerCase() === user.email.toLowerCase()) {
    return data<Result>(
      { intent, ok: false, message: "That is already your email address." },
      { status: 400 },
    );
  }
  const outcome = await requestEmailChange(request, parsed.data.email);
  return data<Result>({ intent, ...outcome }, { status: outcome.ok ? 200 : 400 });
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const result = (intent: string) => (actionData?.intent === intent ? actionData : null);
  const errors = actionData?.errors ?? {};
  const name = result("update-name");
  const email = result("change-email");
  return (
    <div className="space-y-6">
      <PageHeader title="Profile" lead="How we address you, and where we write to you." />
      {params.get("email") === "changed" ? (
        <FormMessage tone="success" message={`Your email address is now ${loaderData.email}.`} />
      ) : null}
      <section
        aria-labelledby="name-heading"
        className="rounded-xl border border-slate-800 bg-slate-900 p-6"
      >
        <h2 id="name-heading" className="text-lg font-semibold text-white">
          Name
        </h2>
        {name?.message ? (
          <FormMessage tone={name.ok ? "success" : "error"} message={name.message} />
        ) : null}
        <Form method="post" className="mt-4 max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="update-name" />
          <Field
            label="Name"
            name="name"
            autoComplete="name"
            defaultValue={loaderData.name}
            required
            errors={errors.name}
          />
          <button type="submit" className="btn-primary" disabled={busy}>
            Save name
          </button>
        </Form>
      </section>
      <section
        aria-labelledby="email-heading"
        className="rounded-xl border border-slate-800 bg-slate-900 p-6"
      >
        <h2 id="email-heading" className="text-lg font-semibold text-white">
          Email address
        </h2>
        <p className="mt-2 text-slate-300">
          Now: <strong className="text-white">{loaderData.email}</strong>. A new address must be
          confirmed from a link we send to it.
        </p>
        {email?.message ? (
          <FormMessage tone={email.ok ? "success" : "error"} message={email.message} />
        ) : null}
        <Form method="post" className="mt-4 max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="change-email" />
          <Field
            label="New email address"
            name="email"
            type="email"
            autoComplete="email"
            required
            errors={errors.email}
          />
          <button type="submit" className="btn-secondary" disabled={busy}>
            Send confirmation link
          </button>
        </Form>
      </section>
    </div>
  );
}
