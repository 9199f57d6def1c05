/** A team's invitations waiting for an answer, each with "Resend" and "Withdraw". */
import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import type { TeamPage } from "~/.server/teams/team-page.server";
import { formatDate } from "~/lib/dates";

export function WaitingInvitations({
  invitations,
}: {
  invitations: TeamPage["team"]["invitations"];
}) {
  const pending = usePendingForms();
  if (invitations.length === 0) return null;
  return (
    <>
      <h3 className="mt-6 font-medium text-white">Waiting for an answer</h3>
      <ul className="mt-2 divide-y divide-slate-800">
        {invitations.map((invite) => (
          <li key={invite.id} className="flex flex-wrap items-center gap-3 py-3">
            <span className="min-w-0 flex-1 break-all text-slate-200">{invite.email}</span>
            <span className="text-sm text-slate-300">
              {`${invite.roleLabel}, until ${formatDate(invite.expiresAt)}`}
            </span>
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <input type="hidden" name="invitationId" value={invite.id} />
              <button
                type="submit"
                className="btn-secondary"
                disabled={pending({ intent: "resend", fields: { invitationId: invite.id } })}
              >
                Resend<span className="sr-only">{` to ${invite.email}`}</span>
              </button>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value="withdraw" />
              <input type="hidden" name="invitationId" value={invite.id} />
              <button
                type="submit"
                className="btn-secondary"
                disabled={pending({ intent: "withdraw", fields: { invitationId: invite.id } })}
              >
                Withdraw
                <span className="sr-only">{` the invitation to ${invite.email}`}</span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </>
  );
}
