import { data, redirect } from "react-router";
import { requireSession } from "~/.server/auth/session";
import { teamBuyer } from "~/.server/billing/buyer";
import { formAction } from "~/.server/forms/action.server";
import {
  answerCancelFlow,
  cancelFlowPage,
  type CancelFlowResult,
} from "~/.server/retention/cancel-flow.server";
import { teamViewFor } from "~/.server/teams/teams.server";
import { CancelFlowForm } from "~/components/account/CancelFlowForm";
import { cancelFlowSchema } from "~/lib/cancel-flow";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/team-cancel";

export const meta: Route.MetaFunction = () =>
  pageMeta("Cancel the team's seats", "Cancel the team's subscription at the end of its period.");

/** The team, for its owner and billing managers: outsiders get 404, members 403. */
async function managedTeam(userId: string, id: string) {
  const team = await teamViewFor(userId, id);
  if (!team) throw data("Not found", { status: 404 });
  if (team.myRole === "member")
    throw data("Only the owner and billing managers manage the seats.", { status: 403 });
  return team;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const team = await managedTeam(user.id, params.id);
  const page = await cancelFlowPage(user, teamBuyer(team.id));
  if (!page) throw redirect(`/account/team/${team.id}#seats`);
  return { ...page, team: { id: team.id, name: team.name } };
}

export async function action(args: Route.ActionArgs) {
  return formAction(args, cancelFlowSchema, async (input, { user }) => {
    const team = await managedTeam(user.id, args.params.id);
    const result: CancelFlowResult = await answerCancelFlow(user, teamBuyer(team.id), input);
    // A team is shown no offer (decision 0071): cancelling is the one answer there is.
    throw redirect(
      result.kind === "checkout" ? result.url : `/account/team/${team.id}?notice=cancelled#seats`,
    );
  });
}

export default function TeamCancelPage({ loaderData, actionData }: Route.ComponentProps) {
  const { plan, consequences, offer, team } = loaderData;
  return (
    <div className="space-y-6">
      <CancelFlowForm
        title={`Cancel ${team.name}'s ${plan}`}
        consequences={consequences}
        offer={offer}
        backTo={`/account/team/${team.id}#seats`}
        answer={actionData}
      />
    </div>
  );
}
