import { json, methodNotAllowed, oauthError, requireDevice } from "~/.server/desktop/http.server";
import { startTrial, TRIAL_REFUSALS } from "~/.server/trials/trials.server";
import { trialDaysLeft } from "~/lib/trials";
import type { Route } from "./+types/trial";

/**
 * POST /api/desktop/trial: starts the free Pro trial from the app (issue 36, point 1), for the
 * signed-in device's account; the next /me carries Pro and a licence that ends with the trial.
 * 409 with `reason` (and the words to show) when the account, its mailbox or a computer signed in
 * to it has had one, or it has had Pro.
 */
export async function action({ request }: Route.ActionArgs) {
  const found = await requireDevice(request);
  if (found instanceof Response) return found;
  const started = await startTrial(found.user, "desktop");
  if (!started.ok)
    return oauthError(409, "trial_refused", TRIAL_REFUSALS[started.reason], {
      reason: started.reason,
      pricing_url: "/pricing",
    });
  return json({
    trial: {
      ends_at: started.trial.endsAt.toISOString(),
      days_left: trialDaysLeft(started.trial.endsAt),
    },
  });
}

export const loader = () => methodNotAllowed("POST");
