/**
 * /account/subscription's card of the subscription itself: its renewal, status, next charge and
 * payment method, and the commands its state allows (switch, refund, pause, resume, cancel, keep).
 */
import { Form, Link } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import type { SubscriptionPage } from "~/.server/billing/subscription-page.server";
import { SelfRefund } from "~/components/billing/SelfRefund";
import { Card } from "~/components/Section";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { formatDate } from "~/lib/dates";
import { gstSplitText } from "~/lib/gst-split";
import { formatPrice } from "~/lib/money";
import {
  allows,
  STATE_RULES,
  STATUS_RULES,
  type SubscriptionCommand,
} from "~/lib/subscription-state";
import { SWITCH_WORDS } from "~/lib/plan-switch";
import { Detail } from "./Detail";
import { PauseForm } from "./PauseForm";

export function SubscriptionCard({
  page,
}: {
  page: Pick<SubscriptionPage, "overview" | "renewal" | "refund" | "switchOption">;
}) {
  const pending = usePendingForms();
  const { overview, renewal, refund, switchOption } = page;
  const sub = overview.subscription;
  const switchTo = overview.switchTo;
  if (!sub) return null;
  const rules = STATE_RULES[sub.state];
  const can = (command: SubscriptionCommand) => allows(sub.state, command);
  return (
    <Card id="billing-heading" title={sub.plan}>
      {renewal ? (
        <p className="mt-3 text-lg text-slate-100" data-testid="renewal-sentence">
          {renewal.sentence}
        </p>
      ) : null}
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        <Detail term="Status">
          <span data-testid="subscription-status">
            {sub.activating ? "Payment received, activating…" : sub.statusText}
          </span>
        </Detail>
        {renewal?.next ? (
          <Detail term="Next charge">
            <span data-testid="next-charge" className="block">
              {switchTo
                ? `${formatPrice(renewal.next.amount)} on ${formatDate(renewal.next.at)}, for ${renewal.next.plan}`
                : `${formatPrice(renewal.next.amount)} on ${formatDate(renewal.next.at)}`}
            </span>
            <span
              data-testid="next-charge-gst"
              className="mt-1 block text-sm font-normal text-slate-300"
            >
              {renewal.next.tax
                ? `${gstSplitText(renewal.next.tax)}, as your invoice will show it`
                : "No Indian GST: a sale outside India, on an export invoice"}
            </span>
          </Detail>
        ) : sub.cancelAtCycleEnd && sub.currentEnd ? (
          <Detail term="Pro until">
            <span data-testid="ends-on">{formatDate(sub.currentEnd)}</span>
          </Detail>
        ) : null}
        {sub.coupon ? (
          <Detail term="Coupon">
            <span data-testid="subscription-coupon">{sub.coupon}</span>
          </Detail>
        ) : null}
        <Detail term="Payment method">
          <span data-testid="payment-method">
            {sub.paymentMethod ??
              (STATUS_RULES[sub.status].awaitsFirstCharge
                ? "Authorised at checkout; it shows here after the first charge."
                : "Not known yet: it appears once Razorpay confirms the first payment.")}
          </span>
          {switchTo?.kind === "method" && switchTo.startsAt ? (
            <span data-testid="next-payment-method" className="mt-1 block text-sm text-slate-300">
              {`From ${formatDate(switchTo.startsAt)}: ${switchTo.method ?? "the new payment method"}`}
            </span>
          ) : null}
        </Detail>
      </dl>
      {renewal?.ifChargeFails ? (
        <p className="mt-4 text-sm text-slate-300" data-testid="if-charge-fails">
          {renewal.ifChargeFails}
        </p>
      ) : null}

      <div className="mt-6 flex flex-wrap items-start gap-3">
        {renewal?.fix ? (
          <Link to={renewal.fix.to} className="btn-primary">
            {renewal.fix.label}
          </Link>
        ) : null}
        {can("switch") && !switchTo ? (
          <Link
            to={`/checkout?plan=${sub.planId}&switch=1&change=method`}
            className="btn-secondary"
          >
            Change payment method
          </Link>
        ) : null}
        <Link to="/billing" className="btn-secondary">
          Billing details
        </Link>
        <Link to="/invoices" className="btn-secondary">
          Invoices
        </Link>
      </div>

      {can("switch") && switchOption && !switchTo ? (
        <div className="mt-8 border-t border-slate-800 pt-6">
          <h3 className="font-semibold text-white">{`Switch to ${switchOption.label}`}</h3>
          <p className="mt-1 text-sm text-slate-300">
            {`${switchOption.price}. Starts when this period ends${sub.currentEnd ? ` (${formatDate(sub.currentEnd)})` : ""}; you are not charged twice for the same days.`}
          </p>
          <Link
            to={`/checkout?plan=${switchOption.id}&switch=1`}
            className="btn-secondary mt-3"
            onClick={() =>
              track(
                "subscription_upgrade",
                planEvents.subscriptionUpgrade(sub.planId, switchOption.id),
              )
            }
          >
            {`Switch to ${switchOption.label}`}
          </Link>
        </div>
      ) : null}

      {can("withdraw-switch") && switchTo ? (
        <div className="mt-8 border-t border-slate-800 pt-6" data-testid="scheduled-switch">
          <h3 className="font-semibold text-white">
            {SWITCH_WORDS[switchTo.kind].heading(switchTo.plan)}
          </h3>
          <p className="mt-1 text-sm text-slate-300">
            {`${sub.plan} runs until ${switchTo.startsAt ? formatDate(switchTo.startsAt) : "the end of this period"}; then ${
              switchTo.kind === "method"
                ? `${switchTo.method ?? "the new payment method"} pays ${formatPrice(switchTo.price)}, and the current one nothing more`
                : `${switchTo.plan} starts at ${formatPrice(switchTo.price)}`
            }. Nothing to do to keep it; you can still change your mind until then.`}
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <Form method="post">
              <input type="hidden" name="intent" value="withdraw-switch" />
              <button
                type="submit"
                className="btn-secondary"
                disabled={pending({ intent: "withdraw-switch" })}
              >
                {SWITCH_WORDS[switchTo.kind].withdraw(sub.plan)}
              </button>
            </Form>
          </div>
        </div>
      ) : null}

      {can("refund") ? <SelfRefund refund={refund} /> : null}

      {can("resume") ? (
        <Form method="post" className="mt-8 border-t border-slate-800 pt-6">
          <h3 className="font-semibold text-white">Resume</h3>
          <p className="mt-1 text-sm text-slate-300">
            The next charge is at the end of the period already paid, or at once if it has ended.
          </p>
          <input type="hidden" name="intent" value="resume" />
          <button
            type="submit"
            className="btn-primary mt-3"
            disabled={pending({ intent: "resume" })}
          >
            Resume subscription
          </button>
        </Form>
      ) : null}

      {can("pause") && !switchTo ? (
        <PauseForm
          title="Pause instead of cancelling?"
          text={`Nothing is charged while it is paused. You keep Pro until ${sub.currentEnd ? formatDate(sub.currentEnd) : "the end of the period already paid"}, then the account is on Free until you resume, here, whenever you like.`}
          planId={sub.planId}
        />
      ) : null}

      {can("cancel") && rules.cancel ? (
        <div className="mt-8 border-t border-slate-800 pt-6">
          <h3 className="font-semibold text-white">Cancel subscription</h3>
          <p className="mt-1 text-sm text-slate-300">
            {switchTo
              ? `You keep Pro until the end of the period you paid for; the switch to ${switchTo.plan} is withdrawn and nothing more is charged. You can undo it until then.`
              : rules.cancel.words}
          </p>
          {/* One step, with cancelling always in view (decision 0071). */}
          <Link to="/account/subscription/cancel" className="btn-secondary mt-3">
            {rules.cancel.button}
          </Link>
        </div>
      ) : null}

      {can("undo-cancel") && !switchTo ? (
        <Form method="post" className="mt-8 border-t border-slate-800 pt-6">
          <input type="hidden" name="intent" value="undo-cancel" />
          <button
            type="submit"
            className="btn-primary"
            disabled={pending({ intent: "undo-cancel" })}
          >
            Keep my subscription
          </button>
        </Form>
      ) : null}
    </Card>
  );
}
