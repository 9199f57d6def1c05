import { data, Form, useActionData, useSearchParams } from "react-router";
import { teamBuyer } from "~/.server/billing/buyer";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { done, formAction } from "~/.server/forms/action.server";
import { TEAM_ROLE_LABELS } from "~/.server/teams/roles";
import {
  changeTeamRole,
  inviteToTeam,
  leaveTeam,
  removeFromTeam,
  saveTeamProfile,
  teamViewFor,
  withdrawInvitation,
} from "~/.server/teams/teams.server";
import { AppError } from "~/.server/http/errors";
import { undoCancellation } from "~/.server/billing/manage.server";
import { giveSeat, releaseSeat, withSeatLease } from "~/.server/teams/seats.server";
import { setSeatMode } from "~/.server/teams/floating-seats.server";
import { isOveragePercent, SEAT_MODES } from "~/lib/floating-seats";
import { FloatingSeats } from "~/components/account/FloatingSeats";
import { billingDefaults, BillingDetailsFields } from "~/components/billing/BillingDetailsFields";
import { EmailField, FormMessage, SelectField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { usePendingForms } from "~/components/use-form-pending";
import { SeatsSummary } from "~/components/account/SeatsSummary";
import { TeamMembers } from "~/components/account/TeamMembers";
import { TeamInvoices } from "~/components/account/TeamInvoices";
import { WaitingInvitations } from "~/components/account/WaitingInvitations";
import { teamPage } from "~/.server/teams/team-page.server";
import { billingDetailsSchema } from "~/lib/billing-details";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { appReturnFor } from "~/.server/desktop/app-return.server";
import { ReturnToApp } from "~/components/ReturnToApp";
import type { Route } from "./+types/team-detail";

export const meta: Route.MetaFunction = ({ data: page }) =>
  pageMeta(page ? page.team.name : "Team", "The team's people, invitations and billing details.");

/** The team, for its members only: anyone else gets 404, as for a team that does not exist. */
async function teamOr404(userId: string, id: string) {
  const team = await teamViewFor(userId, id);
  if (!team) throw data("Not found", { status: 404 });
  return team;
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const team = await teamOr404(user.id, params.id);
  return {
    ...(await teamPage(user, team)),
    defaults: billingDefaults(team.profile, team.name),
    // Seats bought from the app (issue 57, point 4): the way back to it.
    appReturn: new URL(request.url).searchParams.get("paid")
      ? appReturnFor(request, { done: "seats", team: team.id })
      : null,
  };
}

const schema = z.union([
  z.object({
    intent: z.literal("invite"),
    email: z.email({ error: "Enter an email address." }).trim().toLowerCase(),
    role: z.enum(["member", "billing"], { error: "Choose a role." }),
  }),
  z.object({ intent: z.literal("resend"), invitationId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("withdraw"), invitationId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("remove"), memberId: z.string().min(1).max(100) }),
  z.object({
    intent: z.literal("role"),
    memberId: z.string().min(1).max(100),
    role: z.enum(["owner", "billing", "member"]),
  }),
  z.object({ intent: z.literal("leave") }),
  z.object({ intent: z.literal("give-seat"), memberId: z.string().min(1).max(100) }),
  z.object({ intent: z.literal("keep-seats") }),
  z.object({ intent: z.literal("take-seat"), memberId: z.string().min(1).max(100) }),
  z.object({
    intent: z.literal("seat-mode"),
    mode: z.enum(SEAT_MODES, { error: "Choose named or floating seats." }),
    overagePercent: z.coerce
      .number()
      .refine(isOveragePercent, { error: "Choose one of the overage allowances." }),
  }),
  z.intersection(z.object({ intent: z.literal("profile") }), billingDetailsSchema),
]);

export async function action(args: Route.ActionArgs) {
  const { request, params } = args;
  return formAction(args, schema, async (input, session) => {
    const team = await teamOr404(session.user.id, params.id);
    switch (input.intent) {
      case "invite": {
        const invited = await inviteToTeam(request, {
          organizationId: team.id,
          email: input.email,
          role: input.role,
          inviterId: session.user.id,
        });
        return done("invite", `Invitation sent to ${invited.email}. It works for a week.`);
      }
      case "resend": {
        const invite = team.invitations.find((row) => row.id === input.invitationId);
        if (!invite) throw new AppError("not_found", "That invitation is no longer waiting.");
        await inviteToTeam(request, {
          organizationId: team.id,
          email: invite.email,
          role: invite.role === "owner" ? "member" : invite.role,
          inviterId: session.user.id,
          resend: true,
        });
        return done("invitations", `Sent again to ${invite.email}, for another week.`);
      }
      case "withdraw":
        await withdrawInvitation(request, input.invitationId);
        return done("invitations", "Invitation withdrawn: its link no longer works.");
      case "remove": {
        const person = team.members.find((row) => row.id === input.memberId);
        await removeFromTeam(request, team.id, input.memberId);
        return done("members", `${person?.email ?? "They"} left the team.`);
      }
      case "role":
        await changeTeamRole(request, team.id, input.memberId, input.role);
        return done("members", `Role changed to ${TEAM_ROLE_LABELS[input.role].toLowerCase()}.`);
      case "keep-seats": {
        if (team.myRole === "member")
          throw new AppError("forbidden", "Only the owner and billing managers manage the seats.");
        await undoCancellation(teamBuyer(team.id));
        return done("seats", "The team's subscription continues: it renews as before.");
      }
      case "give-seat":
      case "take-seat": {
        if (team.myRole === "member")
          throw new AppError("forbidden", "Only the owner and billing managers hand out seats.");
        const person = team.members.find((row) => row.id === input.memberId);
        if (!person) throw new AppError("not_found", "That person is not in the team.");
        if (input.intent === "take-seat") {
          await withSeatLease(team.id, () => releaseSeat(team.id, person.userId));
          return done("members", `${person.email} no longer has a seat: it is free.`);
        }
        const given = await withSeatLease(team.id, () => giveSeat(team.id, person.userId));
        if (given === "none")
          throw new AppError("conflict", "The team has no seats: buy seats first.");
        if (given === "floating")
          throw new AppError(
            "conflict",
            "The team's seats float: every member takes one on a machine while the app runs.",
          );
        if (given === "full")
          throw new AppError(
            "conflict",
            "No seat is free: add seats, take one back, or withdraw an invitation first.",
          );
        return done("members", `${person.email} has a seat: Pro from now.`);
      }
      case "seat-mode": {
        if (team.myRole === "member")
          throw new AppError("forbidden", "Only the owner and billing managers manage the seats.");
        if ((await setSeatMode(team.id, input)) === 0)
          throw new AppError("conflict", "The team has no seats to hold: buy seats first.");
        return done(
          "seat-mode",
          input.mode === "floating"
            ? "Seats now float: a machine takes one when the app checks in."
            : "Seats are named again: each belongs to one person. Machines gave back their floating seats.",
        );
      }
      case "leave":
        await leaveTeam(request, team.id, session.user.id);
        throw new Response(null, { status: 303, headers: { Location: "/account/team?left=1" } });
      case "profile": {
        if (team.myRole === "member")
          throw new AppError("forbidden", "Only the owner and billing managers change these.");
        const { intent: _intent, ...details } = input;
        await saveTeamProfile(team.id, details);
        return done("profile", "Billing details saved.");
      }
    }
  });
}

export default function TeamPage({ loaderData }: Route.ComponentProps) {
  const { team, me, defaults, seats, invoices, floating } = loaderData;
  const [params] = useSearchParams();
  const result = useActionData<typeof action>();
  const pending = usePendingForms();
  const manages = team.myRole !== "member";
  const isOwner = team.myRole === "owner";
  // A refusal shows at the top (the form it came from may not be on this person's page); a
  // success beside the form that made it.
  const refusal = result && "intent" in result && !result.ok ? result.message : null;
  const answer = (intent: string) =>
    result && "intent" in result && result.ok && result.intent === intent ? (
      <FormMessage tone="success" message={result.message} />
    ) : null;
  const errorsOf = (intent: string) =>
    result && "intent" in result && result.intent === intent && "errors" in result
      ? (result.errors ?? {})
      : {};
  return (
    <div>
      <PageHeader title={team.name} lead={`Your role: ${team.myRoleLabel}.`} />
      {refusal ? <FormMessage tone="error" message={refusal} /> : null}
      {params.get("created") ? (
        <FormMessage tone="success" message="Team created. Invite your colleagues below." />
      ) : null}
      {params.get("joined") === "given" ? (
        <FormMessage
          tone="success"
          message={`Welcome to ${team.name}. You have one of its seats: Pro on the site and in the desktop app from now.`}
        />
      ) : null}
      {params.get("joined") === "full" ? (
        <FormMessage
          tone="success"
          message={`Welcome to ${team.name}. Its seats were all taken, so you do not have the team's Pro yet: its owner or a billing manager can give you one.`}
        />
      ) : null}
      {params.get("joined") === "floating" ? (
        <FormMessage
          tone="success"
          message={`Welcome to ${team.name}. Its seats float: Pro in the desktop app on any machine while a seat is free.`}
        />
      ) : null}
      {params.get("joined") === "none" ? (
        <FormMessage tone="success" message={`Welcome to ${team.name}.`} />
      ) : null}
      {loaderData.appReturn ? (
        <p className="mb-4">
          <ReturnToApp href={loaderData.appReturn} />
        </p>
      ) : null}
      {params.get("paid") && !seats.subscription ? (
        <FormMessage
          tone="success"
          message="Payment received. The seats are the team's as soon as Razorpay confirms it, usually within a minute: reload this page."
        />
      ) : null}

      <Section id="seats" title="Pro seats">
        {answer("seats")}
        {params.get("notice") === "cancelled" && seats.subscription?.cancelled ? (
          <FormMessage
            tone="success"
            message={
              seats.subscription.currentEnd
                ? `Cancelled: the seats give Pro until ${formatDate(seats.subscription.currentEnd)}, and nothing more is charged.`
                : "Cancelled: nothing more is charged."
            }
          />
        ) : null}
        <SeatsSummary seats={seats} manages={manages} teamId={team.id} />
        <div className="mt-4">
          {answer("seat-mode")}
          <FloatingSeats
            floating={floating}
            manages={manages}
            hasSeats={seats.subscription !== null}
            errors={errorsOf("seat-mode")}
            teamId={team.id}
          />
        </div>
      </Section>

      <Section id="members" title="People">
        {answer("members")}
        <TeamMembers
          members={team.members}
          seats={seats}
          manages={manages}
          isOwner={isOwner}
          me={me}
        />
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="leave" />
          <button type="submit" className="btn-secondary" disabled={pending({ intent: "leave" })}>
            Leave the team
          </button>
        </Form>
      </Section>

      {manages ? (
        <Section id="invite" title="Invite someone">
          {answer("invite")}
          <Form method="post" noValidate className="grid gap-x-4 sm:grid-cols-2">
            <input type="hidden" name="intent" value="invite" />
            <EmailField label="Their work email" errors={errorsOf("invite").email} />
            <SelectField
              label="Role"
              name="role"
              defaultValue="member"
              errors={errorsOf("invite").role}
            >
              <option value="member">Member</option>
              {isOwner ? <option value="billing">Billing manager</option> : null}
            </SelectField>
            <div className="sm:col-span-2">
              <SubmitButton
                pending={pending({ intent: "invite" })}
                label="Send the invitation"
                pendingLabel="Sending…"
              />
            </div>
          </Form>
          {answer("invitations")}
          <WaitingInvitations invitations={team.invitations} />
        </Section>
      ) : null}

      {invoices ? <TeamInvoices invoices={invoices} /> : null}

      {manages ? (
        <Section id="billing-details" title="Billing details">
          <p className="mb-4 text-sm text-slate-300">
            The team's tax invoices are made out to these, with its GSTIN for input tax credit.
          </p>
          {answer("profile")}
          <Form method="post" noValidate>
            <input type="hidden" name="intent" value="profile" />
            <BillingDetailsFields defaults={defaults} errors={errorsOf("profile")} />
            <SubmitButton
              pending={pending({ intent: "profile" })}
              label="Save billing details"
              pendingLabel="Saving…"
              className="btn-primary mt-4"
            />
          </Form>
        </Section>
      ) : (
        <Section id="billing-details" title="Billing">
          <p className="text-slate-300">
            The team's owner and billing managers manage its billing details and invoices.
          </p>
        </Section>
      )}
    </div>
  );
}
