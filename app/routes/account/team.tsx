import { data, Form, Link, useActionData, useNavigation, useSearchParams } from "react-router";
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
import { nextChargePaise } from "~/.server/billing/charge-amount.server";
import { cancelAtPeriodEnd, undoCancellation } from "~/.server/billing/manage.server";
import { invoicesOfTeam } from "~/.server/invoices/queries.server";
import { giveSeat, releaseSeat, teamSeatsOf, withSeatLease } from "~/.server/teams/seats.server";
import { findPlan, planLabel } from "~/lib/plans";
import { formatInr } from "~/lib/money";
import { seatsText } from "~/lib/seats";
import { billingDefaults, BillingDetailsFields } from "~/components/billing/BillingDetailsFields";
import { EmailField, FormMessage, SelectField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { billingDetailsSchema } from "~/lib/billing-details";
import { formatDate } from "~/lib/dates";
import { stateByCode } from "~/lib/gst";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/team";

export const meta: Route.MetaFunction = ({ data: page }) =>
  pageMeta(page ? page.team.name : "Team", "The team's people, invitations and billing details.");

/** The team, for its members only: anyone else gets 404, as for a team that does not exist. */
async function teamOr404(userId: string, id: string) {
  const team = await teamViewFor(userId, id);
  if (!team) throw data("Not found", { status: 404 });
  return team;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const team = await teamOr404(user.id, params.id);
  const manages = team.myRole !== "member";
  const seats = await teamSeatsOf(team.id);
  const subscription = seats.subscription;
  return {
    me: user.id,
    seats: {
      bought: seats.bought,
      held: seats.holders.length,
      invited: seats.invited,
      free: seats.free,
      holders: seats.holders,
      mine: seats.holders.includes(user.id),
      // Stopped after a failed renewal: Razorpay's page takes the missed charge and restarts it.
      haltedFixUrl: manages && seats.halted ? (seats.halted.shortUrl ?? "") : null,
      halted: seats.halted !== null,
      // A change of seats scheduled for the end of this period (point 3).
      next:
        seats.next && seats.next.seats !== seats.bought
          ? {
              seats: seats.next.seats,
              from: (seats.next.chargeAt ?? seats.next.startAt)?.toISOString() ?? null,
              chargePaise: manages ? await nextChargePaise(seats.next) : null,
              per: findPlan(seats.next.planId)?.billingCycle === "yearly" ? "year" : "month",
            }
          : null,
      subscription: subscription
        ? {
            plan: planLabel(subscription.planId),
            status: subscription.status,
            renews:
              ["active", "authenticated"].includes(subscription.status) &&
              !subscription.cancelAtCycleEnd,
            // Cancelled by the team (not ending because a change of seats replaces it).
            cancelled: subscription.cancelAtCycleEnd && seats.next === null,
            // Razorpay's page to authorise again with another method, after a failed charge.
            fixUrl:
              manages && ["pending", "halted"].includes(subscription.status)
                ? subscription.shortUrl
                : null,
            currentEnd: subscription.currentEnd?.toISOString() ?? null,
            chargeAt: subscription.chargeAt?.toISOString() ?? null,
            // What the next charge comes to: the one function every page asks.
            nextChargePaise: manages ? await nextChargePaise(subscription) : null,
          }
        : null,
    },
    // The team's tax invoices: for its owner and billing managers only (point 5).
    invoices: manages
      ? (await invoicesOfTeam(team.id)).map((row) => ({
          id: row.id,
          number: row.number,
          kind: row.kind,
          issuedAt: row.issuedAt.toISOString(),
          totalPaise: row.totalPaise,
        }))
      : null,
    team: {
      ...team,
      myRoleLabel: TEAM_ROLE_LABELS[team.myRole],
      members: team.members.map((person) => ({
        ...person,
        roleLabel: TEAM_ROLE_LABELS[person.role],
      })),
      invitations: team.invitations.map((invite) => ({
        ...invite,
        roleLabel: TEAM_ROLE_LABELS[invite.role],
      })),
      stateName: team.profile ? (stateByCode(team.profile.stateCode)?.name ?? "") : "",
    },
    defaults: billingDefaults(team.profile, team.name),
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
  z.object({ intent: z.literal("cancel-seats") }),
  z.object({ intent: z.literal("keep-seats") }),
  z.object({ intent: z.literal("take-seat"), memberId: z.string().min(1).max(100) }),
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
      case "cancel-seats":
      case "keep-seats": {
        if (team.myRole === "member")
          throw new AppError("forbidden", "Only the owner and billing managers manage the seats.");
        if (input.intent === "keep-seats") {
          await undoCancellation({ teamId: team.id });
          return done("seats", "The team's subscription continues: it renews as before.");
        }
        const row = await cancelAtPeriodEnd({ teamId: team.id }, "Cancelled from the team's page");
        return done(
          "seats",
          row.currentEnd
            ? `Cancelled: the seats give Pro until ${formatDate(row.currentEnd.toISOString())}, and nothing more is charged.`
            : "Cancelled: nothing more is charged.",
        );
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
        if (given === "full")
          throw new AppError(
            "conflict",
            "No seat is free: add seats, take one back, or withdraw an invitation first.",
          );
        return done("members", `${person.email} has a seat: Pro from now.`);
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
  const { team, me, defaults, seats, invoices } = loaderData;
  const [params] = useSearchParams();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
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
      {params.get("joined") === "none" ? (
        <FormMessage tone="success" message={`Welcome to ${team.name}.`} />
      ) : null}
      {params.get("paid") && !seats.subscription ? (
        <FormMessage
          tone="success"
          message="Payment received. The seats are the team's as soon as Razorpay confirms it, usually within a minute: reload this page."
        />
      ) : null}

      <Section id="seats" title="Pro seats">
        {answer("seats")}
        <SeatsSummary seats={seats} manages={manages} teamId={team.id} busy={busy} />
      </Section>

      <Section id="members" title="People">
        {answer("members")}
        <ul className="divide-y divide-slate-800">
          {team.members.map((person) => (
            <li key={person.id} className="flex flex-wrap items-center gap-3 py-3">
              <span className="min-w-0 flex-1 text-slate-200">
                <span className="block font-medium text-white">{person.name}</span>
                <span className="block break-all text-sm text-slate-300">{person.email}</span>
              </span>
              <span className="text-sm text-slate-300">
                {`${person.roleLabel}${seats.holders.includes(person.userId) ? ", Pro seat" : ""}, since ${formatDate(person.joinedAt)}${
                  person.devices === null
                    ? ""
                    : `; ${person.devices === 1 ? "1 device" : `${person.devices} devices`} signed in`
                }`}
              </span>
              {manages && seats.bought > 0 ? (
                <Form method="post">
                  <input
                    type="hidden"
                    name="intent"
                    value={seats.holders.includes(person.userId) ? "take-seat" : "give-seat"}
                  />
                  <input type="hidden" name="memberId" value={person.id} />
                  <button type="submit" className="btn-secondary" disabled={busy}>
                    {seats.holders.includes(person.userId) ? "Take the seat back" : "Give a seat"}
                    <span className="sr-only">{` (${person.email})`}</span>
                  </button>
                </Form>
              ) : null}
              {isOwner && person.userId !== me ? (
                <span className="flex flex-wrap gap-2">
                  <Form method="post" className="flex items-end gap-2">
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="memberId" value={person.id} />
                    <label className="text-sm text-slate-300">
                      <span className="sr-only">{`Role of ${person.email}`}</span>
                      <select
                        name="role"
                        defaultValue={person.role}
                        className="rounded-lg border border-slate-700 bg-slate-950 px-2 py-1 text-slate-100"
                      >
                        <option value="member">Member</option>
                        <option value="billing">Billing manager</option>
                        <option value="owner">Owner</option>
                      </select>
                    </label>
                    <button type="submit" className="btn-secondary" disabled={busy}>
                      Change role<span className="sr-only">{` of ${person.email}`}</span>
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="memberId" value={person.id} />
                    <button type="submit" className="btn-secondary" disabled={busy}>
                      Remove<span className="sr-only">{` ${person.email}`}</span>
                    </button>
                  </Form>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="leave" />
          <button type="submit" className="btn-secondary" disabled={busy}>
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
              <SubmitButton pending={busy} label="Send the invitation" pendingLabel="Sending…" />
            </div>
          </Form>
          {answer("invitations")}
          {team.invitations.length > 0 ? (
            <>
              <h3 className="mt-6 font-medium text-white">Waiting for an answer</h3>
              <ul className="mt-2 divide-y divide-slate-800">
                {team.invitations.map((invite) => (
                  <li key={invite.id} className="flex flex-wrap items-center gap-3 py-3">
                    <span className="min-w-0 flex-1 break-all text-slate-200">{invite.email}</span>
                    <span className="text-sm text-slate-300">
                      {`${invite.roleLabel}, until ${formatDate(invite.expiresAt)}`}
                    </span>
                    <Form method="post">
                      <input type="hidden" name="intent" value="resend" />
                      <input type="hidden" name="invitationId" value={invite.id} />
                      <button type="submit" className="btn-secondary" disabled={busy}>
                        Resend<span className="sr-only">{` to ${invite.email}`}</span>
                      </button>
                    </Form>
                    <Form method="post">
                      <input type="hidden" name="intent" value="withdraw" />
                      <input type="hidden" name="invitationId" value={invite.id} />
                      <button type="submit" className="btn-secondary" disabled={busy}>
                        Withdraw
                        <span className="sr-only">{` the invitation to ${invite.email}`}</span>
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </Section>
      ) : null}

      {invoices ? (
        <Section id="invoices" title="Invoices">
          {invoices.length === 0 ? (
            <p className="text-slate-300">
              No invoices yet: each payment for the team's seats gets a GST tax invoice here.
            </p>
          ) : (
            <ul className="divide-y divide-slate-800">
              {invoices.map((row) => (
                <li key={row.id} className="flex flex-wrap items-center gap-3 py-2">
                  <span className="min-w-0 flex-1 text-slate-200">
                    {`${row.kind === "invoice" ? "Tax invoice" : "Credit note"} ${row.number}, ${formatDate(row.issuedAt)}`}
                  </span>
                  <span className="text-slate-200">{formatInr(row.totalPaise)}</span>
                  <a className="link" href={`/invoices/${row.id}.pdf`}>
                    PDF<span className="sr-only">{` of ${row.number}`}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
        </Section>
      ) : null}

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
              pending={busy}
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

type SeatsData = Route.ComponentProps["loaderData"]["seats"];

/** The team's seats in words: how many, who holds them, what renews when and for how much. */
function SeatsSummary({
  seats,
  manages,
  teamId,
  busy,
}: {
  seats: SeatsData;
  manages: boolean;
  teamId: string;
  busy: boolean;
}) {
  const { subscription } = seats;
  if (!subscription)
    return (
      <div className="text-slate-300" data-testid="team-seats">
        {seats.halted ? (
          <p>
            The team's subscription stopped after its renewal could not be charged, so its seats
            give no Pro now. Pay the missed charge with another method to restart it, or buy seats
            again.
          </p>
        ) : (
          <p>
            The team has no Pro seats yet. Its members use their own plan (Free, or Pro they pay for
            themselves) until it buys seats.
          </p>
        )}
        {seats.haltedFixUrl ? (
          <p className="mt-3">
            <a className="btn-primary" href={seats.haltedFixUrl}>
              Pay the missed charge
            </a>
          </p>
        ) : null}
        {manages ? (
          <p className="mt-3">
            <Link className="btn-primary" to={`/account/team/${teamId}/seats`}>
              Buy seats
            </Link>
          </p>
        ) : null}
      </div>
    );
  const nextDate = subscription.chargeAt ?? subscription.currentEnd;
  return (
    <div className="text-slate-300" data-testid="team-seats">
      <p className="text-white">
        {`${seatsText(seats.bought)} of ${subscription.plan}: ${seats.held} held, ${seats.invited} kept for invitations, ${seats.free} free.`}
      </p>
      {seats.next && seats.next.from ? (
        <p className="mt-2 text-white" data-testid="team-seats-next">
          {`From ${formatDate(seats.next.from)}: ${seatsText(seats.next.seats)}${seats.next.chargePaise !== null ? `, ${formatInr(seats.next.chargePaise)} a ${seats.next.per}` : ""}. Until then the team keeps ${seatsText(seats.bought)}.`}
        </p>
      ) : null}
      <p className="mt-2">
        {seats.mine
          ? "You hold one of the seats: Pro on the site and in the desktop app."
          : "You do not hold a seat."}
      </p>
      {manages ? (
        <p className="mt-2">
          {subscription.renews && nextDate && subscription.nextChargePaise !== null
            ? `Renews on ${formatDate(nextDate)}: ${formatInr(subscription.nextChargePaise)}, GST included, invoiced to the team.`
            : subscription.status === "pending"
              ? "The last charge failed: Razorpay tries again over the next days. Seats keep Pro meanwhile."
              : nextDate && !seats.next
                ? `Ends on ${formatDate(nextDate)}; seats give Pro until then.`
                : null}
        </p>
      ) : null}
      {manages && subscription.fixUrl ? (
        <p className="mt-3">
          <a className="btn-primary" href={subscription.fixUrl}>
            Update the payment method
          </a>
        </p>
      ) : null}
      {manages && !seats.next && subscription.status === "active" && !subscription.cancelled ? (
        <div className="mt-3 flex flex-wrap gap-3">
          <Link className="btn-secondary" to={`/account/team/${teamId}/seats`}>
            Change the number of seats
          </Link>
          <Form method="post">
            <input type="hidden" name="intent" value="cancel-seats" />
            <button type="submit" className="btn-secondary" disabled={busy}>
              Cancel at the end of the period
            </button>
          </Form>
        </div>
      ) : null}
      {manages && subscription.cancelled ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="keep-seats" />
          <button type="submit" className="btn-primary" disabled={busy}>
            Keep the subscription
          </button>
        </Form>
      ) : null}
    </div>
  );
}
