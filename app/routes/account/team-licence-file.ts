import { data } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { licenceFileResponse, licenceFileSchema } from "~/.server/desktop/licence-files.server";
import { AppError } from "~/.server/http/errors";
import { issueTeamLicenceFile } from "~/.server/teams/floating-seats.server";
import { teamViewFor } from "~/.server/teams/teams.server";
import { isTeamLicenceFileRefusal, type TeamLicenceFileRefusal } from "~/lib/floating-seats";
import type { Route } from "./+types/team-licence-file";

/**
 * POST /account/team/:id/licence-file (issue 57, point 3): the team page's form for a machine
 * without internet; the answer is the licence file to save (it holds one of the team's floating
 * seats until it expires), or back to the page with why not. For the team's owner and billing
 * managers; anyone else gets 404 (outsiders) or 403 (members).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = requireSession(context);
  const team = await teamViewFor(user.id, params.id);
  if (!team) throw data("Not found", { status: 404 });
  if (team.myRole === "member")
    throw data("The team's owner and billing managers make its licence files.", { status: 403 });
  const back = (code: TeamLicenceFileRefusal) =>
    new Response(null, {
      status: 303,
      headers: { Location: `/account/team/${team.id}?licence=${code}#seats` },
    });
  const parsed = licenceFileSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return back("invalid");
  try {
    return licenceFileResponse(
      await issueTeamLicenceFile({ id: team.id, name: team.name }, user.id, parsed.data),
    );
  } catch (error) {
    if (error instanceof AppError && isTeamLicenceFileRefusal(error.field))
      return back(error.field);
    throw error;
  }
}

export function loader({ params }: Route.LoaderArgs) {
  return new Response(null, {
    status: 303,
    headers: { Location: `/account/team/${encodeURIComponent(params.id)}` },
  });
}
