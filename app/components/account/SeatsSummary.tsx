/** A team's Pro seats on its page, in words (the team's page; its seats page buys or changes them). */
import { allows } from "~/lib/subscription-state";
import { Form, Link } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import type { TeamPage } from "~/.server/teams/team-page.server";
import { formatDate } from "~/lib/dates";
import { formatInr } from "~/lib/money";
import { seatsText } from "~/lib/seats";

type SeatsData = TeamPage["seats"];

/** The team's seats in words: how many, who holds them, what renews when and for how much. */
export function SeatsSummary({
  seats,
  manages,
  teamId,
}: {
  seats: SeatsData;
  manages: boolean;
  teamId: string;
}) {
  const pending = usePendingForms();
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
        {seats.mode === "floating"
          ? `${seatsText(seats.bought)} of ${subscription.plan}, floating.`
          : `${seatsText(seats.bought)} of ${subscription.plan}: ${seats.held} held, ${seats.invited} kept for invitations, ${seats.free} free.`}
      </p>
      {seats.next && seats.next.from ? (
        <p className="mt-2 text-white" data-testid="team-seats-next">
          {`From ${formatDate(seats.next.from)}: ${seatsText(seats.next.seats)}${seats.next.chargePaise !== null ? `, ${formatInr(seats.next.chargePaise)} a ${seats.next.per}` : ""}. Until then the team keeps ${seatsText(seats.bought)}.`}
        </p>
      ) : null}
      <p className="mt-2">
        {seats.mode === "floating"
          ? "You may take a seat on any of your machines while the desktop app runs there."
          : seats.mine
            ? "You hold one of the seats: Pro on the site and in the desktop app."
            : "You do not hold a seat."}
      </p>
      {manages ? (
        <p className="mt-2">
          {subscription.renews && nextDate && subscription.nextChargePaise !== null
            ? `Renews on ${formatDate(nextDate)}: ${formatInr(subscription.nextChargePaise)}, GST included, invoiced to the team.`
            : subscription.state === "retrying"
              ? "The last charge failed: Razorpay tries again over the next days. Seats keep Pro meanwhile."
              : nextDate && !seats.next
                ? `Ends on ${formatDate(nextDate)}; seats give Pro until then.`
                : null}
        </p>
      ) : null}
      {manages && subscription.addedUntil ? (
        <p className="mt-2 text-white" data-testid="team-seats-added">
          {`Seats were added this period and are paid until ${formatDate(subscription.addedUntil)}; from then the team's subscription renews for ${seatsText(seats.bought)}. Another change of seats can be made from that day.`}
        </p>
      ) : null}
      {manages && subscription.fixUrl ? (
        <p className="mt-3">
          <a className="btn-primary" href={subscription.fixUrl}>
            Update the payment method
          </a>
        </p>
      ) : null}
      {manages && allows(subscription.state, "cancel") ? (
        <div className="mt-3 flex flex-wrap gap-3">
          {allows(subscription.state, "change-seats") ? (
            <Link className="btn-secondary" to={`/account/team/${teamId}/seats`}>
              Change the number of seats
            </Link>
          ) : null}
          {/* One step, with cancelling always in view (decision 0071). */}
          <Link className="btn-secondary" to={`/account/team/${teamId}/cancel`}>
            Cancel at the end of the period
          </Link>
        </div>
      ) : null}
      {manages && subscription.cancelled ? (
        <Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="keep-seats" />
          <button
            type="submit"
            className="btn-primary"
            disabled={pending({ intent: "keep-seats" })}
          >
            Keep the subscription
          </button>
        </Form>
      ) : null}
    </div>
  );
}
