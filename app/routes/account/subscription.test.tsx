// @vitest-environment happy-dom
// The subscription page's states in a DOM (decision 0040): Free, active Pro, cancelled but
// running, failing and halted payments, a scheduled switch, and the action's messages. The
// loader is stubbed with data built the way the real loader and billingOverview() build it.
import { proSourceText } from "~/lib/pro-source";
import { vi } from "vitest";

// Testing Library renders through React's `act`, which only React's development build has; the
// suite sets NODE_ENV=production for every file (vitest.config.ts). Each test file runs in a
// worker of its own, so switching here, before React is first imported, changes only this file.
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { decideEntitlement } from "~/.server/billing/entitlement.server";
import { statusText, type SubscriptionSummary } from "~/.server/billing/overview.server";
import { describeRenewal, IF_CHARGE_FAILS } from "~/.server/billing/renewal.server";
import { SWITCHED_PLAN } from "~/.server/billing/subscriptions.server";
import type { SelfRefundRefusal } from "~/.server/billing/self-refund.server";
import { stateOfRow } from "~/.server/billing/subscription-state.server";
import type { SubscriptionRow } from "~/.server/db/schema";
import { splitGstInclusive } from "~/.server/invoices/engine.server";
import { done, refuse } from "~/.server/forms/action.server";
import { type PaidPlanId, planById, planLabel, planPriceLabel, switchTarget } from "~/lib/plans";
import SubscriptionPage, { type loader } from "./subscription";

afterEach(cleanup);

type LoaderData = Awaited<ReturnType<typeof loader>>;

const NOW = new Date("2027-02-20T06:30:00.000Z");
/** The end of the paid period: "12 Mar 2027" in India time. */
const PERIOD_END = "2027-03-12T06:30:00.000Z";

interface State {
  /** The primary subscription, as stored. */
  sub?: {
    planId: PaidPlanId;
    status: SubscriptionRow["status"];
    cancelAtCycleEnd?: boolean;
    cancelReason?: string | null;
    endReason?: SubscriptionRow["endReason"];
    paymentMethod?: string | null;
    activating?: boolean;
    /** Paused by the customer in their UPI app rather than here. */
    pausedInUpiApp?: boolean;
  };
  /** A switch to this plan waits for the period to end. */
  switchTo?: PaidPlanId;
  devicesInUse?: number;
  notice?: string | null;
  /** The first payment is inside the refund window; `review`: the confirmation step is open. */
  refund?: "offer" | "review";
  /** Why there is no refund on offer (the loader's `refund.refused`). */
  refused?: SelfRefundRefusal;
  /** Where the person stands with the free trial (the loader's `trial`). */
  trial?: LoaderData["trial"];
  /** Holds a seat of this team's running subscription. */
  seat?: { id: string; name: string };
}

/** The loader's answer for a stored state, built as the loader and billingOverview() build it. */
function loaderData({
  sub,
  switchTo: next,
  devicesInUse = 1,
  notice = null,
  refund,
  refused,
  trial = null,
  seat,
}: State): LoaderData {
  const entitlement = decideEntitlement(
    {
      subscriptions: sub
        ? [
            {
              planId: sub.planId,
              status: sub.status,
              currentEnd: new Date(PERIOD_END),
              chargeAt: new Date(PERIOD_END),
              endReason: sub.endReason ?? null,
            },
          ]
        : [],
      grants: [],
      seats: seat
        ? [
            {
              planId: "pro-monthly",
              status: "active",
              currentEnd: new Date(PERIOD_END),
              chargeAt: new Date(PERIOD_END),
              endReason: null,
              team: seat,
              seats: 3,
              seatRank: 1,
            },
          ]
        : [],
    },
    NOW,
  );
  const current = sub ? planById(sub.planId) : undefined;
  const nextPlan = next ? planById(next) : undefined;
  const switchTo = nextPlan
    ? {
        plan: planLabel(nextPlan),
        planId: nextPlan.id,
        startsAt: PERIOD_END,
        price: { amount: nextPlan.pricePaise, currency: "INR" as const },
        kind: "plan" as const,
        method: null,
      }
    : null;
  const row = sub && {
    status: sub.status,
    cancelAtCycleEnd: sub.cancelAtCycleEnd ?? false,
    cancelReason: sub.cancelReason ?? null,
    endReason: sub.endReason ?? null,
  };
  const charging =
    row && ["active", "pending", "authenticated"].includes(row.status) && !row.cancelAtCycleEnd;
  const summary: SubscriptionSummary | null =
    sub && row && current
      ? {
          providerSubscriptionId: "sub_P1",
          planId: sub.planId,
          plan: planLabel(current),
          status: sub.status,
          state: stateOfRow(
            { ...row, pausedBy: sub.pausedInUpiApp ? "customer" : null },
            { switchFollows: switchTo !== null },
          ),
          statusText: statusText(row, switchTo),
          currentEnd: PERIOD_END,
          nextChargeAt: charging ? PERIOD_END : null,
          nextCharge: charging ? { amount: current.pricePaise, currency: "INR" } : null,
          coupon: null,
          paymentMethod: sub.paymentMethod === undefined ? "UPI meera@okaxis" : sub.paymentMethod,
          cancelAtCycleEnd: row.cancelAtCycleEnd,
          manageUrl: "https://rzp.io/i/manage-P1",
          activating: sub.activating ?? false,
          pausedAt: sub.status === "paused" ? "2027-02-25T06:30:00.000Z" : null,
          resumeAt: null,
          pausedInUpiApp: sub.status === "paused" && (sub.pausedInUpiApp ?? false),
        }
      : null;
  const target = current ? switchTarget(current) : undefined;
  const overview: LoaderData["overview"] = {
    subscription: summary,
    switchTo,
    banner: sub?.status === "pending" ? "pending" : sub?.status === "halted" ? "halted" : null,
  };
  const onSubscription =
    current && entitlement.plan !== "free" && ["active", "pending"].includes(sub?.status ?? "");
  const amount = switchTo?.price.amount ?? summary?.nextCharge?.amount ?? null;
  return {
    appReturn: null,
    refund: {
      offer:
        refund && current
          ? {
              paymentId: "pay_First0001",
              plan: planLabel(current),
              amountPaise: current.pricePaise,
              currency: "INR",
              tax: splitGstInclusive(current.pricePaise, 18, true),
              method: "Visa •••• 4366",
              paidAt: "2027-02-12T06:30:00.000Z",
              until: "2027-02-19T06:30:00.000Z",
              key: "rf_0123456789abcdef",
              trialUntil: null,
            }
          : null,
      refused: refused ?? null,
      review: refund === "review",
      windowDays: 7,
    },
    plan: {
      id: onSubscription ? current.id : entitlement.plan,
      name: planLabel(onSubscription ? current : entitlement.plan),
      features: entitlement.features,
      deviceLimit: entitlement.device_limit,
      until: entitlement.expires_at,
    },
    devicesInUse,
    overview,
    // A buyer in another state than the supplier's: IGST.
    renewal: describeRenewal(overview, {
      now: NOW,
      proUntil: entitlement.expires_at,
      onPro: entitlement.plan !== "free",
      tax: amount === null ? null : splitGstInclusive(amount, 18, true),
    }),
    switchOption: target
      ? { id: target.id, label: planLabel(target), price: planPriceLabel(target) }
      : null,
    testMode: false,
    notice,
    trial,
    holdsPro: entitlement.plan !== "free",
    proFrom: {
      text: proSourceText(entitlement),
      teamId: entitlement.team?.id ?? null,
      kind:
        entitlement.plan === "free"
          ? ("free" as const)
          : entitlement.team
            ? ("team" as const)
            : onSubscription
              ? ("subscription" as const)
              : trial?.kind === "running"
                ? ("trial" as const)
                : ("grant" as const),
    },
  };
}

function renderPage(
  state: State,
  action?: (form: FormData) => { state?: State; answer: ReturnType<typeof done> },
) {
  let current = state;
  const Stub = createRoutesStub([
    {
      path: "/account/subscription",
      Component: SubscriptionPage,
      HydrateFallback: () => null,
      loader: () => loaderData(current),
      action: async ({ request }) => {
        if (!action) throw new Error("no action expected");
        const result = action(await request.formData());
        current = result.state ?? current;
        return result.answer;
      },
    },
  ]);
  render(<Stub initialEntries={["/account/subscription"]} />);
  return screen.findByRole("heading", { level: 1, name: "Subscription" });
}

/** The value shown beside a term of a card's list ("Status", "Next charge", …). */
function detail(term: string): string | null {
  const dt = screen.queryAllByText(term, { selector: "dt" });
  if (dt.length > 1) throw new Error(`"${term}" is shown ${dt.length} times`);
  return dt[0]?.nextElementSibling?.textContent ?? null;
}

const region = (name: string) => within(screen.getByRole("region", { name }));
const href = (name: string) => screen.getByRole("link", { name }).getAttribute("href");

describe("/account/subscription", () => {
  it("a team's seat: says whose Pro it is, and offers neither Pro nor a trial (issue 54)", async () => {
    await renderPage({
      seat: { id: "org_k", name: "Kaveri Robotics" },
      trial: { kind: "eligible", days: 14 },
    });
    expect(detail("Plan")).toBe("Pro (monthly)");
    expect(screen.getByTestId("pro-source").textContent).toContain(
      "From a seat of Kaveri Robotics's subscription: the team's owner or billing manager manages it.",
    );
    expect(href("See the team")).toBe("/account/team/org_k");
    expect(screen.queryByRole("region", { name: "Upgrade to Pro" })).toBeNull();
    expect(screen.queryByTestId("start-trial")).toBeNull();
  });

  it("Free: the free plan, and the way to Pro", async () => {
    await renderPage({});
    screen.getByText("Your plan, what it includes and what happens next.");
    const plan = region("Current plan");
    expect(detail("Plan")).toBe("Free");
    expect(detail("Device limit")).toBe("1 device");
    expect(detail("Devices in use")).toBe("1 of 1");
    expect(plan.getAllByRole("listitem").map((item) => item.textContent)).toEqual(
      planById("free").features,
    );
    expect(plan.getByRole("link", { name: "Security" }).getAttribute("href")).toBe(
      "/account/security",
    );
    const upgrade = region("Upgrade to Pro");
    upgrade.getByText(
      "Logic-analyser views, firmware flashing and three devices. GST invoice with every payment.",
    );
    expect(href("Pro monthly")).toBe("/checkout?plan=pro-monthly");
    expect(href("Pro yearly")).toBe("/checkout?plan=pro-yearly");
    expect(href("Compare plans")).toBe("/pricing");
    expect(detail("Status")).toBeNull();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("Free and new: the free trial, offered without a card, started with one button", async () => {
    await renderPage({ trial: { kind: "eligible", days: 14 } }, (form) => {
      expect(form.get("intent")).toBe("start-trial");
      return {
        state: {
          trial: {
            kind: "running",
            countdown: "Pro trial: 14 days left, ends 11 Mar 2027",
            endsAt: "2027-03-11T06:30:00.000Z",
          },
        },
        answer: done(
          "start-trial",
          "Your Pro trial is on until 11 Mar 2027. Nothing is charged; after that day your account is on Free again unless you choose a plan.",
        ),
      };
    });
    region("Upgrade to Pro").getByText(
      "Or try Pro free for 14 days: no card, nothing charged, and Free again afterwards unless you choose a plan.",
    );
    await userEvent.click(screen.getByRole("button", { name: "Start the 14-day free trial" }));
    await screen.findByText(/^Your Pro trial is on until 11 Mar 2027\./);
    const trial = region("Your free Pro trial");
    trial.getByText("Pro trial: 14 days left, ends 11 Mar 2027");
    trial.getByText(
      "Nothing will be charged: we never asked for a card. After 11 Mar 2027 your account moves to Free (one device) by itself, unless you choose a plan. A plan chosen now can start when the trial ends, or at once.",
    );
    expect(screen.queryByRole("button", { name: /free trial/ })).toBeNull();
  });

  it("a plan bought during the trial to start at its end: when, how much, and how not to start it", async () => {
    await renderPage({
      sub: { planId: "pro-monthly", status: "authenticated", paymentMethod: null },
      trial: {
        kind: "running",
        countdown: "Pro trial: 20 days left, ends 12 Mar 2027",
        endsAt: PERIOD_END,
      },
    });
    const trial = region("Your free Pro trial");
    trial.getByText("Pro trial: 20 days left, ends 12 Mar 2027");
    trial.getByText(
      "Pro (monthly) starts when it ends: the first charge, ₹699, is on 12 Mar 2027, and nothing is charged before. To not start it, cancel it below before then.",
    );
    const sub = region("Pro (monthly)");
    sub.getByText("Pro (monthly) is authorised: the first charge, ₹699, is on 12 Mar 2027.");
    expect(detail("Next charge")).toMatch(/^₹699 on 12 Mar 2027/);
    expect(screen.getByRole("link", { name: /^Cancel/ })).toBeTruthy();
  });

  it("a trial already had: says so instead of offering another", async () => {
    await renderPage({
      trial: { kind: "refused", message: "Your free Pro trial ended on 11 Jan 2027." },
    });
    region("Upgrade to Pro").getByText("Your free Pro trial ended on 11 Jan 2027.");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("active Pro: the next charge, the other cycle to switch to and how to cancel", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "active" }, devicesInUse: 2 });
    expect(detail("Plan")).toBe("Pro (monthly)");
    expect(detail("Device limit")).toBe("3 devices");
    expect(detail("Devices in use")).toBe("2 of 3");
    const sub = region("Pro (monthly)");
    expect(detail("Status")).toBe("Active");
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "Pro (monthly) renews on 12 Mar 2027 for ₹699.",
    );
    expect(screen.getByTestId("next-charge").textContent).toBe("₹699 on 12 Mar 2027");
    expect(screen.getByTestId("next-charge-gst").textContent).toBe(
      "₹592.37 + ₹106.63 IGST (18%), as your invoice will show it",
    );
    expect(screen.getByTestId("if-charge-fails").textContent).toBe(IF_CHARGE_FAILS);
    expect(detail("Payment method")).toBe("UPI meera@okaxis");
    expect(detail("Pro until")).toBeNull();
    expect(href("Billing details")).toBe("/billing");
    expect(href("Change payment method")).toBe("/checkout?plan=pro-monthly&switch=1&change=method");
    expect(href("Invoices")).toBe("/invoices");
    expect(sub.queryByRole("link", { name: "Fix payment" })).toBeNull();

    sub.getByRole("heading", { level: 3, name: "Switch to Pro (yearly)" });
    sub.getByText(
      "₹6,999 / year. Starts when this period ends (12 Mar 2027); you are not charged twice for the same days.",
    );
    expect(href("Switch to Pro (yearly)")).toBe("/checkout?plan=pro-yearly&switch=1");

    sub.getByRole("heading", { level: 3, name: "Cancel subscription" });
    sub.getByText(
      "You keep Pro until the end of the period you paid for; nothing more is charged. You can undo it until then.",
    );
    // The reason and the offer are asked in the cancellation step (issue 59), one press away.
    expect(href("Cancel at end of period")).toBe("/account/subscription/cancel");
    expect(sub.queryByRole("button", { name: "Keep my subscription" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Upgrade to Pro" })).toBeNull();
  });

  it("cancelled through the step: its notice, then Pro until the period's end", async () => {
    await renderPage({
      sub: { planId: "pro-monthly", status: "active", cancelAtCycleEnd: true },
      notice: "cancelled",
    });
    expect((await screen.findByRole("status")).textContent).toBe(
      "Cancelled. You keep Pro until 12 Mar 2027; nothing more will be charged.",
    );
    await screen.findByRole("button", { name: "Keep my subscription" });
    expect(detail("Status")).toBe("Cancelled: ends at the end of the paid period");
  });

  it("a notice never claims a change the subscription does not show", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "active" }, notice: "cancelled" });
    expect(screen.queryByRole("status")).toBeNull();
    expect(href("Cancel at end of period")).toBe("/account/subscription/cancel");
  });

  it("cancelled but running: Pro until a date, and the way to keep it", async () => {
    await renderPage({ sub: { planId: "pro-yearly", status: "active", cancelAtCycleEnd: true } });
    expect(detail("Plan")).toBe("Pro (yearly)");
    expect(detail("Status")).toBe("Cancelled: ends at the end of the paid period");
    expect(detail("Pro until")).toBe("12 Mar 2027");
    expect(detail("Next charge")).toBeNull();
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "Pro (yearly) is cancelled: you keep Pro until 12 Mar 2027, then your account moves to Free. Nothing more will be charged.",
    );
    expect(screen.queryByTestId("if-charge-fails")).toBeNull();
    screen.getByRole("button", { name: "Keep my subscription" });
    expect(screen.queryByRole("link", { name: "Cancel at end of period" })).toBeNull();
    expect(screen.queryByRole("heading", { name: /^Switch to/ })).toBeNull();
    expect(screen.queryByRole("region", { name: "Upgrade to Pro" })).toBeNull();
  });

  it("a failed renewal: Razorpay retries, Pro stays, and the way to fix the payment", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "pending" } });
    expect(detail("Plan")).toBe("Pro (monthly)");
    expect(detail("Status")).toBe("Payment failed: Razorpay is retrying");
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "The last charge for Pro (monthly) failed. Razorpay tries again on 12 Mar 2027, then daily while it fails, and Pro stays on meanwhile; if every retry fails, the subscription stops and your account moves to Free.",
    );
    // The next try is Razorpay's charge_at (issue 59, point 5), said in the sentence; no amount
    // is promised for it as a "Next charge".
    expect(detail("Next charge")).toBeNull();
    expect(href("Fix payment")).toBe("/fix-subscription");
    // No switch while a payment is failing; cancelling still works.
    expect(screen.queryByRole("heading", { name: /^Switch to/ })).toBeNull();
    screen.getByRole("link", { name: "Cancel at end of period" });
    expect(screen.queryByRole("region", { name: "Upgrade to Pro" })).toBeNull();
  });

  it("halted after failed payments: back on Free, with fix and restart", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "halted" } });
    expect(detail("Plan")).toBe("Free");
    expect(detail("Status")).toBe("Stopped after failed payments");
    expect(detail("Next charge")).toBeNull();
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "Pro (monthly) stopped after failed payments, so your account is on Free. Paying the missed charge restarts it; you do not need to buy again.",
    );
    expect(href("Fix payment")).toBe("/fix-subscription");
    region("Restart Pro");
    expect(screen.queryByRole("link", { name: "Cancel at end of period" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Keep my subscription" })).toBeNull();
  });

  it("a scheduled switch: the plan today, when the new one starts, what it costs, and both ways out", async () => {
    await renderPage({
      sub: {
        planId: "pro-monthly",
        status: "active",
        cancelAtCycleEnd: true,
        cancelReason: SWITCHED_PLAN,
      },
      switchTo: "pro-yearly",
    });
    // Today's plan is the one paid for, not the one the switch starts (issue 34).
    expect(detail("Plan")).toBe("Pro (monthly)");
    expect(detail("Status")).toBe("Switching to Pro (yearly) on 12 Mar 2027");
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "Pro (monthly) until 12 Mar 2027; then Pro (yearly) starts, and ₹6,999 is charged that day.",
    );
    expect(screen.getByTestId("next-charge").textContent).toBe(
      "₹6,999 on 12 Mar 2027, for Pro (yearly)",
    );
    expect(screen.getByTestId("next-charge-gst").textContent).toBe(
      "₹5,931.36 + ₹1,067.64 IGST (18%), as your invoice will show it",
    );
    expect(detail("Pro until")).toBeNull();
    const scheduled = within(screen.getByTestId("scheduled-switch"));
    scheduled.getByRole("heading", { level: 3, name: "Your switch to Pro (yearly)" });
    scheduled.getByText(
      "Pro (monthly) runs until 12 Mar 2027; then Pro (yearly) starts at ₹6,999. Nothing to do to keep it; you can still change your mind until then.",
    );
    // One choice: a "keep" button that changed nothing is gone.
    expect(scheduled.getAllByRole("button").map((button) => button.textContent)).toEqual([
      "Stay on Pro (monthly)",
    ]);
    screen.getByText(
      "You keep Pro until the end of the period you paid for; the switch to Pro (yearly) is withdrawn and nothing more is charged. You can undo it until then.",
    );
    expect(screen.queryByRole("heading", { name: /^Switch to/ })).toBeNull();
    expect(screen.queryByRole("button", { name: "Keep my subscription" })).toBeNull();
  });

  it("shows a refusal from the action as an alert", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(
      {
        sub: {
          planId: "pro-monthly",
          status: "active",
          cancelAtCycleEnd: true,
          cancelReason: SWITCHED_PLAN,
        },
        switchTo: "pro-yearly",
      },
      () => ({ answer: refuse("withdraw-switch", "There is no plan change scheduled.", 409) }),
    );
    await user.click(screen.getByRole("button", { name: "Stay on Pro (monthly)" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("There is no plan change scheduled.");
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("a checkout that is paid but not yet confirmed, and a notice from checkout", async () => {
    await renderPage({
      sub: { planId: "pro-monthly", status: "created", activating: true, paymentMethod: null },
      notice: "already-subscribed",
    });
    expect(screen.getByRole("status").textContent).toBe(
      "You already have a subscription: manage it here.",
    );
    expect(detail("Status")).toBe("Payment received, activating…");
    expect(detail("Payment method")).toBe(
      "Not known yet: it appears once Razorpay confirms the first payment.",
    );
    expect(detail("Plan")).toBe("Free");
  });

  it("a first payment inside the window: what a refund does, then the one button that does it", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "active" }, refund: "offer" });
    const section = within(screen.getByTestId("self-refund"));
    section.getByRole("heading", { level: 3, name: "Changed your mind?" });
    section.getByText(
      "You paid ₹699 for Pro (monthly) on 12 Feb 2027. Until 19 Feb 2027 you can have it back in full.",
    );
    // The first step only shows what will happen: a link, so it works without JavaScript.
    expect(section.getByRole("link", { name: "Request a refund" }).getAttribute("href")).toBe(
      "/account/subscription?refund=review#refund",
    );
    expect(section.queryByRole("button")).toBeNull();
    expect(screen.queryByTestId("refund-policy")).toBeNull();
  });

  it("the refund's confirmation says what happens to the money, the tax and the plan", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(
      { sub: { planId: "pro-monthly", status: "active" }, refund: "review" },
      () => ({
        state: { sub: { planId: "pro-monthly", status: "cancelled", endReason: "refunded" } },
        answer: done(
          "request-refund",
          "Refund requested: ₹699 goes back to where you paid from, and Pro ends now.",
        ),
      }),
    );
    expect(
      within(screen.getByTestId("refund-review"))
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "₹699 goes back to Visa •••• 4366; banks usually show it within 5 to 7 working days.",
      "A GST credit note reverses the invoice: ₹592.37 + ₹106.63 IGST (18%) (₹106.63 of GST).",
      "Pro (monthly) ends now and your account moves to Free (one device). Nothing more is charged.",
    ]);
    expect(href("Keep Pro")).toBe("/account/subscription");
    await user.click(screen.getByRole("button", { name: "Refund ₹699 and end Pro now" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Refund requested: ₹699 goes back to where you paid from, and Pro ends now.",
    );
    expect(detail("Status")).toBe("Ended: refunded in full");
    expect(screen.queryByTestId("self-refund")).toBeNull();
  });

  it("outside the refund window: no button, and the policy says why and where to go", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "active" } });
    expect(screen.queryByTestId("self-refund")).toBeNull();
    expect(screen.queryByRole("link", { name: "Request a refund" })).toBeNull();
    expect(screen.getByTestId("refund-policy").textContent).toBe(
      "The 7-day refund covers a new subscription's first payment, asked for within 7 days of paying; this subscription is past it. Charged twice or wrongly? Open a support ticket and we refund it in full. Refund policy",
    );
    expect(href("Refund policy")).toBe("/legal/refund");
  });

  it("a payment refunded already (an operator's partial refund, the same day): says so, not the window (issue 54)", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "active" }, refused: "refunded" });
    expect(screen.queryByTestId("self-refund")).toBeNull();
    expect(screen.getByTestId("refund-policy").textContent).toMatch(
      /^This payment has been refunded already, in full or in part, so the rest cannot be refunded from here\. Charged twice/,
    );
    expect(screen.getByTestId("refund-policy").textContent).not.toMatch(/past it/);
  });

  it("active Pro offers a pause before the cancel, in one step", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "active" } });
    screen.getByRole("heading", { level: 3, name: "Pause instead of cancelling?" });
    screen.getByText(
      "Nothing is charged while it is paused. You keep Pro until 12 Mar 2027, then the account is on Free until you resume, here, whenever you like.",
    );
    screen.getByRole("button", { name: "Pause subscription" });
    screen.getByRole("link", { name: "Cancel at end of period" });
  });

  it("paused here: Pro to the paid end, a resume button, and cancelling for good", async () => {
    await renderPage({ sub: { planId: "pro-monthly", status: "paused" } });
    expect(detail("Plan")).toBe("Pro (monthly)");
    expect(detail("Status")).toBe("Paused");
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "Pro (monthly) was paused on 25 Feb 2027, so nothing is charged. You keep Pro until 12 Mar 2027, the end of the period already paid; then your account is on Free until it resumes.",
    );
    expect(detail("Next charge")).toBeNull();
    screen.getByRole("button", { name: "Resume subscription" });
    expect(screen.queryByRole("button", { name: "Pause subscription" })).toBeNull();
    screen.getByText(
      "Cancelling ends the paused subscription for good: it can no longer be resumed. You keep Pro until the end of the period you paid for.",
    );
    screen.getByRole("link", { name: "Cancel subscription" });
  });

  it("paused in the UPI app: said as such, resumed only there", async () => {
    await renderPage({ sub: { planId: "pro-yearly", status: "paused", pausedInUpiApp: true } });
    expect(screen.getByTestId("renewal-sentence").textContent).toBe(
      "You paused Pro (yearly) in your UPI app on 25 Feb 2027, so nothing is charged. You keep Pro until 12 Mar 2027, the end of the period already paid; then your account is on Free until it resumes. Only you can resume it, in that app's AutoPay mandates.",
    );
    expect(screen.queryByRole("button", { name: "Resume subscription" })).toBeNull();
    screen.getByRole("link", { name: "Cancel subscription" });
  });
});
