import { type ReactNode, useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { useConsent } from "~/lib/analytics/provider";

export interface OnboardingView {
  steps: { name: string; done: boolean }[];
  complete: boolean;
  timeSpent: number | null;
}

const STEP_TEXT: Record<string, { title: string; help: ReactNode }> = {
  download_app: {
    title: "Download the app",
    help: (
      <>
        Get the installer for Mac or Windows from the{" "}
        <Link className="link" to="/download">
          download page
        </Link>
        .
      </>
    ),
  },
  sign_in_from_app: {
    title: "Sign in from the app",
    help: (
      <>
        Open {site.product.name} and choose <strong>Sign in</strong>: your browser opens this site
        to connect the app to your account.{" "}
        <Link className="link" to="/download#sign-in">
          How signing in works
        </Link>
      </>
    ),
  },
  device_seen: {
    title: "First device seen",
    help: (
      <>
        The app checks in with your account when it starts; the device then shows under{" "}
        <Link className="link" to="/account/security">
          Security
        </Link>
        .
      </>
    ),
  },
  first_usage_report: {
    title: "First usage report",
    help: (
      <>
        Use the pin map, serial monitor or flasher: what you use appears on your{" "}
        <Link className="link" to="/account/usage">
          Usage
        </Link>{" "}
        page.
      </>
    ),
  },
};

/** What the overview's action answers when asked for the checklist's events. */
interface Claimed {
  toSend?: { steps: string[]; completeTimeSpent: number | null };
}

/**
 * Sends onboarding_step for each step done and onboarding_complete once all are, each once per
 * person ever: the server claims them (routes/account/overview.tsx), so another browser, tab or
 * visit gets nothing to send twice. Asked only with consent and only while the page shows a step
 * done that was never reported, so most visits send no request at all.
 */
function useOnboardingEvents(progress: OnboardingView, reported: readonly string[]) {
  const { ready, choice } = useConsent();
  const claim = useFetcher<Claimed>();
  const asked = useRef(false);
  const sent = useRef(false);
  const unreported =
    progress.steps.some((step) => step.done && !reported.includes(step.name)) ||
    (progress.complete && !reported.includes("complete"));
  useEffect(() => {
    if (!ready || choice !== "granted" || !unreported || asked.current) return;
    asked.current = true;
    claim.submit({ intent: "report-onboarding" }, { method: "post", action: "/account?index" });
  }, [ready, choice, unreported, claim]);
  const toSend = claim.data?.toSend;
  useEffect(() => {
    if (!toSend || sent.current) return;
    sent.current = true;
    for (const name of toSend.steps) track("onboarding_step", { step_name: name, completed: true });
    if (toSend.completeTimeSpent !== null)
      track("onboarding_complete", { time_spent: toSend.completeTimeSpent });
  }, [toSend]);
}

/**
 * The first-run checklist of the account overview, decided on the server from the account's
 * devices and usage (app/.server/account/onboarding.server.ts), so it is in the first paint and
 * nothing moves after. Once every step is done it is no longer shown.
 */
export function OnboardingChecklist({
  progress,
  reported,
}: {
  progress: OnboardingView;
  /** The steps analytics already has for this person ("complete" for the end). */
  reported: readonly string[];
}) {
  useOnboardingEvents(progress, reported);
  if (progress.complete) return null;
  const doneCount = progress.steps.filter((step) => step.done).length;
  return (
    <section
      aria-labelledby="getting-started"
      className="mb-8 rounded-xl border border-green-500/40 bg-green-950/30 p-4 sm:p-5"
    >
      <h2 id="getting-started" className="text-lg font-semibold text-white">
        Get started with {site.product.name}
      </h2>
      <p className="mt-1 text-sm text-slate-300">
        {doneCount} of {progress.steps.length} steps done
      </p>
      <ol className="mt-4 space-y-4">
        {progress.steps.map((step, index) => {
          const text = STEP_TEXT[step.name];
          if (!text) return null;
          return (
            <li key={step.name} className="flex min-w-0 gap-3">
              <span
                aria-hidden="true"
                className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-sm font-bold ${
                  step.done
                    ? "bg-green-500 text-slate-950"
                    : "border border-slate-500 text-slate-300"
                }`}
              >
                {step.done ? "✓" : index + 1}
              </span>
              <div className="min-w-0">
                <p className="font-semibold break-words text-white">
                  {text.title}{" "}
                  <span
                    className={`ml-1 inline-block rounded px-1.5 text-xs font-medium ${
                      step.done ? "bg-green-900 text-green-200" : "bg-slate-800 text-slate-300"
                    }`}
                  >
                    {step.done ? "Done" : "To do"}
                  </span>
                </p>
                <p className="mt-1 text-sm break-words text-slate-300">{text.help}</p>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
