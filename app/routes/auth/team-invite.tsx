import { data, Form, Link, redirect, useActionData } from "react-router";
import { useFormPending } from "~/components/use-form-pending";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { formAction } from "~/.server/forms/action.server";
import { TEAM_ROLE_LABELS } from "~/.server/teams/roles";
import { acceptInvitation, declineInvitation, invitationById } from "~/.server/teams/teams.server";
import { FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/team-invite";

export const meta: Route.MetaFunction = () =>
  pageMeta("Team invitation", "Accept or decline an invitation to a team.");

/**
 * `/team-invite/:id`, the link in an invitation mail (signed in: the `auth` guard sends anyone
 * else to sign in or sign up first, then back here). Who may accept is decided by the plugin: the
 * invited address only, once, before it expires.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const invite = await invitationById(params.id);
  if (!invite) throw data("Not found", { status: 404 });
  return {
    invite: { ...invite, roleLabel: TEAM_ROLE_LABELS[invite.role] },
    forMe: invite.email.toLowerCase() === user.email.toLowerCase(),
    email: user.email,
  };
}

const schema = z.object({ intent: z.enum(["accept", "decline"]) });

export async function action(args: Route.ActionArgs) {
  return formAction(args, schema, async (input, session) => {
    const invite = await invitationById(args.params.id);
    if (!invite) throw data("Not found", { status: 404 });
    if (input.intent === "accept") {
      const joined = await acceptInvitation(args.request, invite.id, session.user.id);
      // "Welcome": with Pro from one of the team's seats, without one (all taken), or to a team
      // that has no seats.
      throw redirect(`/account/team/${joined.organizationId}?joined=${joined.seat}`);
    }
    await declineInvitation(args.request, invite.id);
    throw redirect("/account/team?declined=1");
  });
}

export default function TeamInvitePage({ loaderData }: Route.ComponentProps) {
  const { invite, forMe, email } = loaderData;
  const result = useActionData<typeof action>();
  const answering = useFormPending({ intent: ["accept", "decline"] });
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
      <PageHeader
        title={`Join ${invite.team}`}
        lead={`An invitation to the ${invite.team} team, as ${invite.roleLabel.toLowerCase()}, for ${invite.email}.`}
      />
      {result && !result.ok ? <FormMessage tone="error" message={result.message} /> : null}
      {!invite.valid ? (
        <p className="text-slate-200" data-testid="invite-state">
          This invitation is no longer valid: it was used, withdrawn or has expired. Ask the team
          for a new one.
        </p>
      ) : !forMe ? (
        <p className="text-slate-200" data-testid="invite-state">
          {`You are signed in as ${email}, and this invitation is for ${invite.email}. Sign out and sign in with that address to answer it.`}
        </p>
      ) : (
        <Form method="post" className="flex flex-wrap gap-3">
          <button
            type="submit"
            name="intent"
            value="accept"
            className="btn-primary"
            disabled={answering}
          >
            Accept and join
          </button>
          <button
            type="submit"
            name="intent"
            value="decline"
            className="btn-secondary"
            disabled={answering}
          >
            Decline
          </button>
        </Form>
      )}
      <p className="mt-8 text-sm">
        <Link className="link" to="/account/team">
          Your teams
        </Link>
      </p>
    </div>
  );
}
