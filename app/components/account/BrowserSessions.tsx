import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { Section } from "~/components/Section";
import { formatDate } from "~/lib/dates";
import { describeBrowser } from "./describe-browser";
import { AnswerMessage } from "./AnswerMessage";
import type { FormAnswer } from "./form-answer";

export interface BrowserSessionRow {
  id: string;
  createdAt: string;
  userAgent: string | null;
  ipAddress: string | null;
  current: boolean;
}

/** The browsers signed in to the account: sign out one, or all but this one. */
export function BrowserSessions({
  browsers,
  answer,
}: {
  browsers: BrowserSessionRow[];
  answer: FormAnswer | null;
}) {
  const pending = usePendingForms();
  return (
    <Section id="browsers" title="Browser sessions">
      <AnswerMessage answer={answer} />
      <ul className="divide-y divide-slate-800">
        {browsers.map((browser) => (
          <li key={browser.id} className="flex items-center justify-between gap-4 py-3">
            <div>
              <p className="font-medium text-white">
                {describeBrowser(browser.userAgent)}{" "}
                {browser.current ? (
                  <span className="ml-2 text-sm text-green-400">(this browser)</span>
                ) : null}
              </p>
              <p className="text-sm text-slate-400">
                {browser.ipAddress ?? "unknown address"} · since {formatDate(browser.createdAt)}
              </p>
            </div>
            {browser.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="revoke-session" />
                <input type="hidden" name="sessionId" value={browser.id} />
                <button
                  type="submit"
                  className="btn-secondary"
                  disabled={pending({
                    intent: "revoke-session",
                    fields: { sessionId: browser.id },
                  })}
                >
                  Sign out
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      {browsers.length > 1 ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="revoke-other-sessions" />
          <button
            type="submit"
            className="btn-secondary"
            disabled={pending({ intent: "revoke-other-sessions" })}
          >
            Sign out everywhere else
          </button>
        </Form>
      ) : null}
    </Section>
  );
}
