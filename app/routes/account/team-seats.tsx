import { data, Form, Link, redirect, useSubmit } from "react-router";
import { teamBuyer } from "~/.server/billing/buyer";
import { useFormPending } from "~/components/use-form-pending";
import { STATUS_RULES } from "~/lib/subscription-state";
import { z } from "zod";
import { requireSession } from "~/.server/auth/session";
import { startCheckout, verifyCheckout } from "~/.server/billing/checkout.server";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { formAction, refuse } from "~/.server/forms/action.server";
import { seatsOrder } from "~/.server/teams/checkout.server";
import { teamSeatsOf } from "~/.server/teams/seats.server";
import { teamViewFor } from "~/.server/teams/teams.server";
import { CheckoutProgress } from "~/components/billing/CheckoutProgress";
import { TestModeBadge } from "~/components/billing/TestModeBadge";
import {
  type OpenSubscription,
  useRazorpayCheckout,
} from "~/components/billing/useRazorpayCheckout";
import { Field, FormMessage, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { PAYMENT_METHODS_TEXT } from "~/config/pricing";
import { site } from "~/config/site";
import { gstSplitText, placeOfSupplyCode, splitInclusive } from "~/lib/gst-split";
import { stateByCode } from "~/lib/gst";
import { pageMeta } from "~/lib/meta";
import { formatInr } from "~/lib/money";
import { findPlan, planLabel } from "~/lib/plans";
import { formatDate } from "~/lib/dates";
import { seatQuote, seatsText, seatTiersText, seatTopup, upiLimitText } from "~/lib/seats";
import type { Route } from "./+types/team-seats";

export const meta: Route.MetaFunction = () =>
  pageMeta("Buy seats", "Pro seats for the team, paid with Razorpay and invoiced to its GSTIN.");

const orderSchema = z.object({
  cycle: z.enum(["monthly", "yearly"], { error: "Choose monthly or yearly." }),
  seats: z.coerce
    .number({ error: "Enter a number of seats." })
    .int({ error: "Enter a whole number of seats." })
    .min(1, { error: "At least 1 seat." })
    .max(site.teams.maxSeats, { error: `At most ${site.teams.maxSeats} seats.` }),
});

/** The team, for its owner and billing managers: outsiders get 404, members 403. */
async function managedTeam(userId: string, id: string) {
  const team = await teamViewFor(userId, id);
  if (!team) throw data("Not found", { status: 404 });
  if (team.myRole === "member")
    throw data("The team's owner and billing managers buy its seats.", { status: 403 });
  return team;
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const team = await managedTeam(user.id, params.id);
  const seats = await teamSeatsOf(team.id);
  // With seats, this page changes their number (point 3): from the running subscription's cycle.
  const current = seats.subscription;
  if (current && (seats.next || !STATUS_RULES[current.status].paidUp || !current.currentEnd))
    throw redirect(`/account/team/${team.id}#seats`);
  const currentCycle = current ? (findPlan(current.planId)?.billingCycle ?? "monthly") : null;
  const url = new URL(request.url);
  // The order as asked for (a plain GET form, so the price updates without scripts too); a
  // number out of range is shown with its reason and priced at the nearest one allowed.
  const asked = orderSchema.safeParse({
    cycle: currentCycle ?? url.searchParams.get("cycle") ?? "monthly",
    seats:
      url.searchParams.get("seats") ??
      (current ? current.seats + 1 : Math.max(1, team.members.length)),
  });
  const order = asked.success
    ? asked.data
    : { cycle: currentCycle ?? ("monthly" as const), seats: current?.seats ?? 1 };
  const quote = seatQuote(order.cycle, order.seats);
  const change =
    current && current.currentStart && current.currentEnd
      ? {
          seats: current.seats,
          from: current.currentEnd.toISOString(),
          topup:
            order.seats > current.seats
              ? seatTopup(
                  quote.seatPricePaise,
                  order.seats - current.seats,
                  { start: current.currentStart, end: current.currentEnd },
                  new Date(),
                )
              : null,
        }
      : null;
  const place = team.profile
    ? placeOfSupplyCode(team.profile.gstin ?? "", team.profile.stateCode)
    : null;
  const payments = paymentsConfig();
  return {
    team: { id: team.id, name: team.name },
    profile: team.profile
      ? {
          name: team.profile.name,
          gstin: team.profile.gstin,
          state: stateByCode(team.profile.stateCode)?.name ?? "",
        }
      : null,
    problem: asked.success
      ? change && order.seats === change.seats
        ? `The team has ${seatsText(change.seats)} already: choose another number.`
        : null
      : (asked.error.issues[0]?.message ?? "Check the order."),
    change,
    order,
    quote,
    planLabel: planLabel(quote.planId),
    gst:
      place === null
        ? null
        : splitInclusive(
            change?.topup?.amountPaise ?? quote.totalPaise,
            site.pricing.gstRatePercent,
            place !== site.company.address.stateCode,
          ),
    tiers: { monthly: seatTiersText("monthly"), yearly: seatTiersText("yearly") },
    checkout: { scriptUrl: payments.checkoutScriptUrl, testMode: payments.testMode },
    prefill: { name: user.name, email: user.email },
  };
}

const verifySchema = z.object({
  intent: z.literal("verify"),
  razorpay_payment_id: z.string().regex(/^pay_[A-Za-z0-9]{1,40}$/),
  razorpay_subscription_id: z.string().regex(/^sub_[A-Za-z0-9]{1,40}$/),
  razorpay_signature: z.string().regex(/^[0-9a-f]{64}$/),
});
const startSchema = z.intersection(z.object({ intent: z.literal("start") }), orderSchema);

export async function action(args: Route.ActionArgs) {
  const { params } = args;
  const intent = (await args.request.clone().formData()).get("intent");
  if (intent === "verify")
    return formAction(args, verifySchema, async (input, { user }) => {
      const team = await managedTeam(user.id, params.id);
      const verified = await verifyCheckout(teamBuyer(team.id), input);
      if (!verified)
        return refuse(
          "verify",
          "We could not confirm that payment. If money left the account it will show on the team's page within minutes; otherwise try again.",
        );
      throw redirect(`/account/team/${team.id}?paid=1#seats`);
    });
  return formAction(args, startSchema, async (input, { user }) => {
    const team = await managedTeam(user.id, params.id);
    const subscription = await startCheckout(seatsOrder(user, team.id, input));
    const quote = seatQuote(input.cycle, input.seats);
    return data({
      intent: "start",
      ok: true,
      message: "",
      open: {
        subscriptionId: subscription.providerSubscriptionId,
        keyId: paymentsConfig().keyId,
        description: subscription.replacesSubscriptionId
          ? `${team.name}: ${seatsText(subscription.seats)} of ${planLabel(subscription.planId)} from ${formatDate((subscription.startAt ?? new Date()).toISOString())}`
          : `${seatsText(quote.seats)} of ${planLabel(quote.planId)} for ${team.name}: ${formatInr(quote.totalPaise)}, GST included`,
      } satisfies OpenSubscription,
    });
  });
}

export default function TeamSeatsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { team, profile, problem, order, quote, gst, tiers, checkout, prefill, change } =
    loaderData;
  const submit = useSubmit();
  const paying = useFormPending({ intent: "start" });
  const confirming = useFormPending({ intent: "verify" });
  // The order form (GET) redraws the quote the payment form sends: wait for it.
  const quoting = useFormPending({ method: "get" });
  const open = actionData && "open" in actionData ? actionData.open : null;
  const refusal = actionData && !actionData.ok ? actionData.message : null;
  const errors = actionData && "errors" in actionData ? (actionData.errors ?? {}) : {};
  const {
    phase,
    problem: payProblem,
    pay,
  } = useRazorpayCheckout({
    scriptUrl: checkout.scriptUrl,
    prefill,
    notes: { team_id: team.id },
    open,
    answer: actionData,
  });
  const per = quote.cycle === "yearly" ? "year" : "month";
  const from = change ? formatDate(change.from) : "";
  const topup = change?.topup ?? null;
  // What is charged now (the added seats' share of this cycle), or the first cycle when buying.
  const nowPaise = change ? (topup?.amountPaise ?? 0) : quote.totalPaise;
  const overLimit = quote.overUpiLimit || nowPaise > site.pricing.upiAutopayLimitPaise;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <PageHeader
        title={change ? `Change ${team.name}'s seats` : `Pro seats for ${team.name}`}
        lead={
          change
            ? `The team has ${seatsText(change.seats)} of ${loaderData.planLabel}; this period ends on ${from}.`
            : "Each seat gives one person in the team Pro on the site and in the desktop app. The team's invoices are made out to its GSTIN."
        }
      >
        <div className="mt-4">
          <TestModeBadge show={checkout.testMode} />
        </div>
      </PageHeader>
      <p className="mb-6 text-sm">
        <Link className="link" to={`/account/team/${team.id}`}>
          {`Back to ${team.name}`}
        </Link>
      </p>

      <section
        aria-labelledby="order"
        className="mb-8 rounded-xl border border-slate-800 bg-slate-900 p-6"
      >
        <h2 id="order" className="text-lg font-semibold text-white">
          Order
        </h2>
        {problem ? <FormMessage tone="error" message={problem} /> : null}
        <Form
          method="get"
          className="mt-3 grid gap-x-4 sm:grid-cols-2"
          onChange={(event) => void submit(event.currentTarget, { replace: true })}
        >
          <Field
            label={change ? "Seats from now on" : "Seats"}
            name="seats"
            type="number"
            inputMode="numeric"
            min={1}
            max={site.teams.maxSeats}
            defaultValue={order.seats}
            hint="One for each person who needs Pro."
            errors={errors.seats}
          />
          {change ? (
            <p className="mb-4 text-sm text-slate-300">
              {`Billed ${quote.cycle}, as now: ${tiers[quote.cycle]}.`}
            </p>
          ) : (
            <fieldset className="mb-4">
              <legend className="mb-1 text-sm text-slate-300">Billed</legend>
              {(["monthly", "yearly"] as const).map((cycle) => (
                <label key={cycle} className="flex items-start gap-2 py-1 text-slate-200">
                  <input
                    type="radio"
                    name="cycle"
                    value={cycle}
                    defaultChecked={order.cycle === cycle}
                    className="mt-1"
                  />
                  <span>
                    {cycle === "monthly" ? "Monthly" : "Yearly"}
                    <span className="block text-sm text-slate-300">{tiers[cycle]}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          <noscript>
            <button type="submit" className="btn-secondary mb-4">
              Update the price
            </button>
          </noscript>
        </Form>
        <p className="text-white" data-testid="seats-price">
          {`${seatsText(quote.seats)} × ${formatInr(quote.seatPricePaise)} = ${formatInr(quote.totalPaise)} a ${per}${change ? ` from ${from}` : ""}, GST included.`}
        </p>
        {change ? (
          <p className="mt-2 text-white" data-testid="seats-now">
            {topup
              ? `Now: ${formatInr(topup.amountPaise)} for ${seatsText(topup.seatsAdded)} more over the ${topup.daysLeft} days left of this period (${topup.seatsAdded} × ${formatInr(quote.seatPricePaise)} × ${topup.daysLeft}/${topup.cycleDays}), GST included. The seats are the team's as soon as it is paid.`
              : `Nothing is charged now. The team keeps ${seatsText(change.seats)} until ${from}; from then, ${seatsText(quote.seats)}.`}
          </p>
        ) : null}
        <p className="mt-2 text-sm text-slate-300" data-testid="seats-gst">
          {gst && profile
            ? `${formatInr(nowPaise || quote.totalPaise)} is ${gstSplitText(gst)}, as the tax invoice to ${profile.name}${profile.gstin ? ` (GSTIN ${profile.gstin})` : ""}, ${profile.state}, will show it.`
            : "Save the team's billing details first: its tax invoices are made out to them."}
        </p>
        {overLimit ? (
          <p
            className="mt-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-100"
            data-testid="seats-upi-limit"
          >
            {upiLimitText(Math.max(quote.totalPaise, nowPaise), quote.cycle)}
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-300">{PAYMENT_METHODS_TEXT}</p>
        )}
        <p className="mt-2 text-sm text-slate-300">
          {change
            ? `Razorpay cannot change the amount of a running UPI AutoPay or Indian card mandate, so you authorise a new one for ${formatInr(quote.totalPaise)} a ${per}, starting on ${from}; the current one ends then.`
            : `Renews every ${per} until the team cancels. People get Pro when they accept an invitation while a seat is free, or when you give them one.`}
        </p>
      </section>

      <CheckoutProgress
        phase={phase}
        problem={payProblem}
        confirming={confirming}
        refusal={refusal}
        open={open}
        onRetry={(details) => void pay(details)}
      />

      {profile && !problem ? (
        <Form method="post">
          <input type="hidden" name="intent" value="start" />
          <input type="hidden" name="cycle" value={quote.cycle} />
          <input type="hidden" name="seats" value={quote.seats} />
          <SubmitButton
            pending={paying || phase === "opening"}
            waiting={quoting}
            label={
              !change
                ? `Continue to payment: ${formatInr(quote.totalPaise)}`
                : topup
                  ? `Pay ${formatInr(topup.amountPaise)} and authorise ${formatInr(quote.totalPaise)} a ${per}`
                  : `Authorise ${formatInr(quote.totalPaise)} a ${per} from ${from}`
            }
            pendingLabel="Opening payment…"
            className="btn-primary w-full sm:w-auto"
          />
        </Form>
      ) : !profile ? (
        <p className="text-slate-300">
          <Link className="link" to={`/account/team/${team.id}#billing-details`}>
            The team's billing details
          </Link>
        </p>
      ) : null}
    </div>
  );
}
