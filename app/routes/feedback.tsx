import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, redirect, useSearchParams } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { getSession } from "~/.server/auth/session";
import { env } from "~/.server/env";
import { formAction } from "~/.server/forms/action.server";
import { AppError } from "~/.server/http/errors";
import { saveFeedback } from "~/.server/feedback/feedback.server";
import { latestStableCached } from "~/.server/releases/queries.server";
import { requestContext } from "~/.server/request-context";
import { rateLimitClientKey } from "~/.server/security/client-key";
import { hitRateLimit } from "~/.server/security/rate-limit.server";
import { Field, FormMessage, useErrorsUntilEdited } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { FEEDBACK_CATEGORIES, FEEDBACK_CATEGORY_LABELS, feedbackSchema } from "~/lib/feedback";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/feedback";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Feedback",
    `Tell the ${site.product.name} team what works, what does not, and what you need next.`,
  );

/** Passes the action's Retry-After (rate limit) on to the document response. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request }: Route.LoaderArgs) {
  // Only to prefill the email: the cached session is good enough.
  const [session, release] = await Promise.all([
    getSession(request, { cached: true }),
    latestStableCached().catch(() => null),
  ]);
  return { email: session?.user.email ?? "", latestVersion: release?.version ?? null };
}

/** What each point of the optional rating means, read out and shown beside the number. */
const RATING_LABELS = ["Poor", "Fair", "Good", "Very good", "Excellent"] as const;

const FIELD_NAMES = ["email", "category", "message", "rating", "appVersion", "os"] as const;
type FieldName = (typeof FIELD_NAMES)[number];
type FieldErrors = Partial<Record<FieldName, string[]>>;

export async function action(args: Route.ActionArgs) {
  // A field people never see: bots fill it in. They get the same confirmation and nothing is stored.
  const honeypot = (await args.request.clone().formData()).get("website");
  if (typeof honeypot === "string" && honeypot !== "") throw redirect("/feedback?sent=1");

  return formAction(
    args,
    feedbackSchema,
    async (input, session) => {
      const { clientIp, log } = args.context.get(requestContext);
      const limit = await hitRateLimit(
        `feedback:${rateLimitClientKey(clientIp)}`,
        env().FEEDBACK_RATE_LIMIT,
        60 * 60,
      );
      if (!limit.allowed)
        throw new AppError(
          "rate_limited",
          `You have sent several messages in the last hour. Please wait ${Math.ceil(limit.retryAfter / 60)} minutes, or write to ${site.company.supportEmail}.`,
          { retryAfter: limit.retryAfter },
        );
      const id = await saveFeedback({ ...input, userId: session?.user.id ?? null });
      log.info({ feedbackId: id, category: input.category }, "feedback received");
      // Post/redirect/get: a reload does not send the message twice.
      return redirect("/feedback?sent=1");
    },
    { who: "anyone", echo: FIELD_NAMES },
  );
}

export default function FeedbackPage({ loaderData, actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const sent = params.get("sent") === "1";
  const submitting = useFormPending();
  const started = useRef(false);
  // Checked in the browser first (the same schema), so an empty form answers at once; the
  // server checks again.
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors: FieldErrors = clientErrors ?? actionData?.errors ?? {};
  // The fields written here rather than with the field kit clear their errors as its fields do.
  const [categoryErrors, categoryEdited] = useErrorsUntilEdited(errors.category);
  const [messageErrors, messageEdited] = useErrorsUntilEdited(errors.message);
  const [ratingErrors, ratingEdited] = useErrorsUntilEdited(errors.rating);
  const values = actionData?.values;

  function checkBeforeSending(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const parsed = feedbackSchema.safeParse(
      Object.fromEntries(FIELD_NAMES.map((name) => [name, String(form.get(name) ?? "")])),
    );
    if (parsed.success) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    track("form_submit", { form_name: "feedback", success: false });
    const found: FieldErrors = {};
    for (const issue of parsed.error.issues)
      (found[issue.path[0] as FieldName] ??= []).push(issue.message);
    setClientErrors(found);
  }

  useEffect(() => {
    if (actionData) track("form_submit", { form_name: "feedback", success: false });
  }, [actionData]);
  useEffect(() => {
    if (sent && started.current) track("form_submit", { form_name: "feedback", success: true });
  }, [sent]);

  return (
    <div className="prose-page">
      <PageHeader
        title="Feedback"
        lead={`Found a bug, missing a board, or have an idea? The people who build ${site.product.name} read every message.`}
      />
      {sent ? (
        <div className="space-y-4">
          <FormMessage
            tone="success"
            message="Thank you: your message has reached the team. If you asked a question, we reply by email."
          />
          <a className="link" href="/feedback">
            Send another message
          </a>
        </div>
      ) : (
        <Form
          method="post"
          noValidate
          className="space-y-2"
          onSubmit={checkBeforeSending}
          onInput={() => {
            if (!started.current) {
              started.current = true;
              track("form_start", { form_name: "feedback" });
            }
          }}
        >
          {actionData && !actionData.ok && !actionData.errors ? (
            <FormMessage tone="error" message={actionData.message} />
          ) : null}
          <Field
            label="Your email"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={values?.email ?? loaderData.email}
            errors={errors.email}
          />
          <div onInput={categoryEdited}>
            <label htmlFor="feedback-category" className="block text-sm font-medium text-slate-200">
              What is it about?
            </label>
            <select
              id="feedback-category"
              name="category"
              required
              defaultValue={values?.category ?? ""}
              aria-invalid={categoryErrors ? true : undefined}
              aria-describedby="feedback-category-error"
              className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100"
            >
              <option value="" disabled>
                Choose one
              </option>
              {FEEDBACK_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {FEEDBACK_CATEGORY_LABELS[category]}
                </option>
              ))}
            </select>
            <p id="feedback-category-error" className="mt-1 min-h-5 text-sm text-red-300">
              {categoryErrors?.join(" ")}
            </p>
          </div>
          <div onInput={messageEdited}>
            <label htmlFor="feedback-message" className="block text-sm font-medium text-slate-200">
              Message
            </label>
            <textarea
              id="feedback-message"
              name="message"
              required
              minLength={10}
              maxLength={5000}
              rows={7}
              defaultValue={values?.message ?? ""}
              aria-invalid={messageErrors ? true : undefined}
              aria-describedby="feedback-message-hint feedback-message-error"
              className="mt-1 block w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100"
            />
            <p id="feedback-message-hint" className="mt-1 text-xs text-slate-400">
              10 to 5000 characters. For a bug, say what you did, what happened and what you
              expected.
            </p>
            <p id="feedback-message-error" className="mt-1 min-h-5 text-sm text-red-300">
              {messageErrors?.join(" ")}
            </p>
          </div>
          <fieldset onInput={ratingEdited}>
            <legend className="text-sm font-medium text-slate-200">
              How do you rate {site.product.name}? (optional)
            </legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {[1, 2, 3, 4, 5].map((rating) => (
                <label
                  key={rating}
                  className="flex cursor-pointer items-center gap-1 rounded-md border border-slate-700 px-3 py-1.5 text-sm text-slate-200 has-checked:border-green-400 has-checked:text-green-300"
                >
                  <input
                    type="radio"
                    name="rating"
                    value={rating}
                    defaultChecked={values?.rating === String(rating)}
                    className="accent-green-500"
                  />
                  {rating}
                  <span className="text-xs text-slate-400">{RATING_LABELS[rating - 1]}</span>
                </label>
              ))}
            </div>
            <p className="mt-1 min-h-5 text-sm text-red-300">{ratingErrors?.join(" ")}</p>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="App version (optional)"
              name="appVersion"
              placeholder={loaderData.latestVersion ?? "1.0.0"}
              defaultValue={values?.appVersion ?? ""}
              errors={errors.appVersion}
            />
            <Field
              label="Operating system (optional)"
              name="os"
              placeholder="macOS 15, Windows 11…"
              defaultValue={values?.os ?? ""}
              errors={errors.os}
            />
          </div>
          <div className="sr-only" aria-hidden="true">
            <label htmlFor="feedback-website">Website</label>
            <input
              id="feedback-website"
              name="website"
              type="text"
              tabIndex={-1}
              autoComplete="off"
            />
          </div>
          <button type="submit" className="btn-primary" disabled={submitting}>
            {submitting ? "Sending…" : "Send feedback"}
          </button>
        </Form>
      )}
    </div>
  );
}
