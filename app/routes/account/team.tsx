import { Form, Link, redirect, useActionData } from "react-router";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { formAction } from "~/.server/forms/action.server";
import { createTeam, teamsOf } from "~/.server/teams/teams.server";
import { pendingInvitationsFor } from "~/.server/teams/invitations.server";
import { billingDefaults, BillingDetailsFields } from "~/components/billing/BillingDetailsFields";
import { FormMessage, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { useFormPending } from "~/components/use-form-pending";
import { billingDetailsSchema } from "~/lib/billing-details";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { TEAM_ROLE_LABELS } from "~/.server/teams/roles";
import type { Route } from "./+types/team";

export const meta: Route.MetaFunction = () =>
  pageMeta("Teams", "Your company's team: its billing details, its people and their roles.");

export async function loader({ context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const [teams, invitations] = await Promise.all([
    teamsOf(user.id),
    pendingInvitationsFor(user.email),
  ]);
  return {
    teams: teams.map((team) => ({ ...team, roleLabel: TEAM_ROLE_LABELS[team.role] })),
    invitations: invitations.map((row) => ({ ...row, expiresAt: row.expiresAt.toISOString() })),
    defaults: billingDefaults(null, ""),
  };
}

const schema = z.intersection(z.object({ intent: z.literal("create-team") }), billingDetailsSchema);

export async function action(args: Route.ActionArgs) {
  return formAction(args, schema, async (input) => {
    const { intent: _intent, ...details } = input;
    const team = await createTeam(args.request, details);
    throw redirect(`/account/team/${team.id}?created=1`);
  });
}

export default function TeamsPage({ loaderData }: Route.ComponentProps) {
  const { teams, invitations, defaults } = loaderData;
  const result = useActionData<typeof action>();
  const creating = useFormPending({ intent: "create-team" });
  const errors = result && "errors" in result ? (result.errors ?? {}) : {};
  return (
    <div>
      <PageHeader
        title="Teams"
        lead="A team holds your company's billing details (its GSTIN for tax invoices) and its people, each with a role: owner, billing manager or member."
      />
      {invitations.length > 0 ? (
        <Section id="invitations" title="Invitations for you">
          <ul className="space-y-2">
            {invitations.map((invite) => (
              <li key={invite.id} className="text-slate-200">
                <Link className="link" to={`/team-invite/${invite.id}`}>
                  {invite.team}
                </Link>
                {` (until ${formatDate(invite.expiresAt)})`}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      <Section id="your-teams" title="Your teams">
        {teams.length === 0 ? (
          <p className="text-slate-300">You are in no team.</p>
        ) : (
          <ul className="space-y-2">
            {teams.map((team) => (
              <li key={team.id} className="text-slate-200">
                <Link className="link" to={`/account/team/${team.id}`}>
                  {team.name}
                </Link>
                {` · ${team.roleLabel}${team.seat ? " · Pro seat" : ""}`}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section id="new-team" title="Create a team">
        <p className="mb-4 text-sm text-slate-300">
          The company's legal name and address as its tax invoices should show them. You become the
          team's owner.
        </p>
        {result && !result.ok ? <FormMessage tone="error" message={result.message} /> : null}
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="create-team" />
          <BillingDetailsFields defaults={defaults} errors={errors} />
          <SubmitButton
            pending={creating}
            label="Create the team"
            pendingLabel="Creating…"
            className="btn-primary mt-4"
          />
        </Form>
      </Section>
    </div>
  );
}
