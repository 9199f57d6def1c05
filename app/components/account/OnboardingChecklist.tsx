import { type ReactNode, useEffect } from "react";
import { Link } from "react-router";
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

/** Which steps this browser has already reported, per user: each is sent once. */
const sentKey = (userId: string) => `onboarding-sent:${userId}`;

function readSent(userId: string): Set<string> | null {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(sentKey(userId)) ?? "[]");
    return new Set(Array.isArray(stored) ? stored.map(String) : []);
  } catch {
    return null;
  }
}

/**
 * Sends onboarding_step for each step done and onboarding_complete once all are, each once per
 * user in this browser. Only with consent: what was never sent is not marked, so granting later
 * still reports it. Without storage (private modes may refuse it) nothing is sent rather than the
 * same steps on every visit.
 */
function useOnboardingEvents(userId: string, progress: OnboardingView) {
  const { ready, choice } = useConsent();
  const done = progress.steps.filter((step) => step.done).map((step) => step.name);
  const doneKey = done.join(",");
  const { complete, timeSpent } = progress;
  useEffect(() => {
    if (!ready || choice !== "granted") return;
    // A parent's effects run after its children's: wait one task so the analytics provider has
    // installed its sink when consent was just given on this page.
    const timer = setTimeout(() => {
      const sent = readSent(userId);
      if (!sent) return;
      for (const name of doneKey ? doneKey.split(",") : []) {
        if (sent.has(name)) continue;
        track("onboarding_step", { step_name: name, completed: true });
        sent.add(name);
      }
      if (complete && timeSpent !== null && !sent.has("complete")) {
        track("onboarding_complete", { time_spent: timeSpent });
        sent.add("complete");
      }
      try {
        localStorage.setItem(sentKey(userId), JSON.stringify([...sent]));
      } catch {
        // Full or refused storage: the steps may be reported again on a later visit.
      }
    });
    return () => clearTimeout(timer);
  }, [ready, choice, userId, doneKey, complete, timeSpent]);
}

/**
 * The first-run checklist of the account overview, decided on the server from the account's
 * devices and usage (app/.server/account/onboarding.server.ts), so it is in the first paint and
 * nothing moves after. Once every step is done it is no longer shown.
 */
export function OnboardingChecklist({
  userId,
  progress,
}: {
  userId: string;
  progress: OnboardingView;
}) {
  useOnboardingEvents(userId, progress);
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
