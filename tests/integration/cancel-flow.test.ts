/**
 * Issue 59, point 1: "Cancel subscription" is one step with an optional reason and at most one
 * offer, set by the operator per plan. Taking the pause pauses for the cycles set and resumes by
 * itself after a notice; declining cancels at once; the yearly and coupon offers go on to a switch
 * the customer authorises; the cockpit counts shown, taken and declined, and the reasons.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addBillingCycles } from "~/lib/billing-cycle";
import { formatDate } from "~/lib/dates";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import {
  buyThroughSandbox,
  cancelThroughFlow,
  DETAILS,
  sandboxApi,
  sandboxPay,
  startCheckout,
} from "../support/billing";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import { pageText, sectionText, textOf } from "../support/pages";
import type { RunningTestServer } from "../support/server";
import { teamWithPaidSeats } from "../support/teams";

const PASSWORD = "cancel-flow-password-1";

describe.each(engines())("the cancellation step on $name", (engine) => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "200" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  let people = 0;
  const customer = async () => {
    const email = `leaver${++people}@example.com`;
    const cookie = await signUpVerified(server, {
      name: `Leaver ${people}`,
      email,
      password: PASSWORD,
    });
    return { email, cookie };
  };
  const setFlow = (fields: Record<string, string>) =>
    postForm(server, "/admin/retention", boss, { intent: "save-flow", ...fields });
  const offersOn = (html: string) => html.match(/data-testid="cancel-offer"/g)?.length ?? 0;
  const mails = (email: string, subject: RegExp) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && subject.test(mail.subject),
    );
  const sandboxStatus = async (id: string) =>
    (await sandboxApi<{ status: string }>(server.url, `/v1/subscriptions/${id}`)).status;
  const visits = async () =>
    server.sql(
      `select v.offer, v.offer_detail, v.reason, v.reason_text, v.outcome, s.provider_subscription_id as sub
         from cancel_flow_visits v join subscriptions s on s.id = v.subscription_id order by v.shown_at`,
    );

  it("refuses a flow that cannot work, with the field's reason", async () => {
    const pause = await setFlow({ planId: "pro-monthly", offer: "pause", pauseCycles: "4" });
    expect(pause.status).toBe(400);
    expect(textOf(await pause.text())).toContain("Choose a pause of 1, 2 or 3 billing cycles.");
    const yearly = await setFlow({ planId: "pro-yearly", offer: "yearly" });
    expect(yearly.status).toBe(400);
    expect(textOf(await yearly.text())).toContain(
      "Only a monthly plan can offer the yearly cycle.",
    );
    const coupon = await setFlow({ planId: "pro-monthly", offer: "discount", couponCode: "NOPE" });
    expect(coupon.status).toBe(400);
    expect(textOf(await coupon.text())).toContain("Choose one of your coupons.");
    // Nobody is offered anything from a refused flow.
    expect(await server.sql("select * from cancel_flows")).toEqual([]);
  });

  it("pauses for the cycles set, resumes by itself after a notice, and counts declines and reasons", async () => {
    expect(
      (await setFlow({ planId: "pro-monthly", offer: "pause", pauseCycles: "2" })).status,
    ).toBe(200);

    // The first customer opens the step: one offer, and "Cancel my subscription" beside it.
    const first = await customer();
    const firstSub = await buyThroughSandbox(server, first.cookie);
    await server.jobsSettled();
    expect(await pageText(server, "/account/subscription", first.cookie)).toContain(
      "Cancel subscription",
    );
    const step = await (
      await getWithCookies(server, "/account/subscription/cancel", first.cookie)
    ).text();
    expect(offersOn(step)).toBe(1);
    const [row] = await server.sql(
      `select current_end from subscriptions where provider_subscription_id = '${firstSub}'`,
    );
    const paidEnd = new Date(String(row!.current_end));
    const resumeAt = addBillingCycles(paidEnd, "monthly", 2);
    expect(textOf(step)).toContain("Or pause for 2 months");
    expect(textOf(step)).toContain(
      `You keep Pro until ${formatDate(paidEnd)}, then nothing is charged for 2 months. It resumes by itself on ${formatDate(resumeAt)} at ₹699`,
    );
    expect(textOf(step)).toContain("Cancel my subscription");
    expect(textOf(step)).toContain("Pause for 2 months");

    // Taken, with a reason: paused at Razorpay, to resume on that day.
    const taken = await postForm(server, "/account/subscription/cancel", first.cookie, {
      intent: "take-offer",
      reason: "too-expensive",
      details: "Money is tight this quarter",
    });
    expect(taken.status).toBe(302);
    expect(taken.headers.get("location")).toBe("/account/subscription?notice=paused");
    expect(await sandboxStatus(firstSub)).toBe("paused");
    const paused = await pageText(server, "/account/subscription?notice=paused", first.cookie);
    expect(paused).toContain(
      `Paused: nothing is charged until it resumes by itself on ${formatDate(resumeAt)}.`,
    );
    expect(paused).toContain(`It resumes by itself on ${formatDate(resumeAt)}`);
    await server.jobsSettled();
    expect(mails(first.email, /is paused$/)[0]?.text).toContain(
      `It resumes by itself on ${formatDate(resumeAt)}`,
    );

    // The second customer declines: cancelled at the period's end, the reason kept.
    const second = await customer();
    const secondSub = await buyThroughSandbox(server, second.cookie);
    await server.jobsSettled();
    expect(
      offersOn(
        await (await getWithCookies(server, "/account/subscription/cancel", second.cookie)).text(),
      ),
    ).toBe(1);
    const declined = await cancelThroughFlow(server, second.cookie, { reason: "not-using" });
    expect(declined.location).toBe("/account/subscription?notice=cancelled");
    expect(declined.page).toMatch(
      /Cancelled\. You keep Pro until \d{1,2} [A-Z][a-z]{2} \d{4}; nothing more will be charged\./,
    );
    expect(
      await server.sql(
        `select cancel_reason from subscriptions where provider_subscription_id = '${secondSub}'`,
      ),
    ).toEqual([{ cancel_reason: "I do not use it enough" }]);
    expect(await visits()).toEqual([
      {
        offer: "pause",
        offer_detail: "2",
        reason: "too-expensive",
        reason_text: "Money is tight this quarter",
        outcome: "paused",
        sub: firstSub,
      },
      {
        offer: "pause",
        offer_detail: "2",
        reason: "not-using",
        reason_text: null,
        outcome: "cancelled",
        sub: secondSub,
      },
    ]);

    // The cockpit: one shown-and-taken, one shown-and-declined, and why.
    const cockpit = sectionText(
      await (await getWithCookies(server, "/admin", boss)).text(),
      "retention",
    );
    expect(cockpit).toContain("Offers shown 2");
    expect(cockpit).toContain("Offers taken 1");
    expect(cockpit).toContain("Offers declined 1");
    const reasons = sectionText(
      await (await getWithCookies(server, "/admin/retention", boss)).text(),
      "retention",
    );
    expect(reasons).toContain("It costs too much 1");
    expect(reasons).toContain("I do not use it enough 1");

    // Three days before the pause ends, the notice; on the day, it resumes by itself.
    await server.sql(
      `update subscriptions set resume_at = now() - interval '1 second' where provider_subscription_id = '${firstSub}'`,
    );
    const due = `(select to_char(resume_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from subscriptions where provider_subscription_id = '${firstSub}')`;
    await server.sql(
      `update jobs set run_at = now(), payload = payload || jsonb_build_object('resumeAt', ${due})
         where completed_at is null and kind = 'mail.billing' and payload->>'template' = 'pause-ending'`,
    );
    await server.jobsSettled();
    const notice = mails(first.email, /resumes on/);
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain("The subscription then runs again and we charge ₹699");
    expect(await sandboxStatus(firstSub)).toBe("paused");
    await server.sql(
      `update jobs set run_at = now(), payload = payload || jsonb_build_object('resumeAt', ${due})
         where completed_at is null and kind = 'billing.pause-end'`,
    );
    await server.jobsSettled();
    expect(await sandboxStatus(firstSub)).toBe("active");
    expect(mails(first.email, /is running again$/)).toHaveLength(1);
    expect(
      await server.sql(
        `select resume_at from subscriptions where provider_subscription_id = '${firstSub}'`,
      ),
    ).toEqual([{ resume_at: null }]);
  });

  it("sends the yearly offer to a switch the customer authorises, and counts it taken only then", async () => {
    expect((await setFlow({ planId: "pro-monthly", offer: "yearly" })).status).toBe(200);
    const { cookie } = await customer();
    const monthly = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    const step = await (
      await getWithCookies(server, "/account/subscription/cancel", cookie)
    ).text();
    expect(offersOn(step)).toBe(1);
    expect(textOf(step)).toContain("Or move to Pro (yearly)");
    expect(textOf(step)).not.toContain("Pause for");

    const taken = await postForm(server, "/account/subscription/cancel", cookie, {
      intent: "take-offer",
      reason: "too-expensive",
    });
    expect(taken.headers.get("location")).toBe("/checkout?plan=pro-yearly&switch=1");
    // Nothing changed yet: the monthly plan still renews.
    expect(await sandboxStatus(monthly)).toBe("active");
    const before = sectionText(
      await (await getWithCookies(server, "/admin/retention", boss)).text(),
      "retention",
    );
    expect(before).toContain("Offers taken 1");

    const started = await startCheckout(server, cookie, "pro-yearly", DETAILS, { switch: "1" });
    expect(started.status).toBe(200);
    expect((await sandboxPay(server, started.subscriptionId!, "success")).status).toBe(200);
    await server.jobsSettled();
    const after = sectionText(
      await (await getWithCookies(server, "/admin/retention", boss)).text(),
      "retention",
    );
    expect(after).toContain("Offers taken 2");
  });

  it("offers the coupon's price as the same plan from the period's end", async () => {
    const offerId = (
      await sandboxApi<{ id: string }>(server.url, "/control/offers", {
        method: "POST",
        body: JSON.stringify({
          name: "Stay",
          type: "cycles",
          cycles: 3,
          discount_type: "percentage",
          discount_value: 30,
        }),
      })
    ).id;
    const made = await postForm(server, "/admin/coupons", boss, {
      intent: "create",
      code: "STAY30",
      kind: "percent",
      amount: "30",
      duration: "cycles",
      cycles: "3",
      offerMethod: "any",
      perCustomer: "1",
      offerId,
    });
    expect(made.status, textOf(await made.text())).toBe(200);
    expect(
      (await setFlow({ planId: "pro-monthly", offer: "discount", couponCode: "STAY30" })).status,
    ).toBe(200);
    const { cookie } = await customer();
    await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    const step = textOf(
      await (await getWithCookies(server, "/account/subscription/cancel", cookie)).text(),
    );
    expect(step).toContain("Or stay for ₹489.30");
    expect(step).toContain("With the coupon STAY30");
    const taken = await postForm(server, "/account/subscription/cancel", cookie, {
      intent: "take-offer",
    });
    const checkout = taken.headers.get("location")!;
    expect(checkout).toBe("/checkout?plan=pro-monthly&switch=1&coupon=STAY30");
    expect(await pageText(server, checkout, cookie)).toContain(
      "Stay on Pro (monthly) at the coupon's price",
    );
    const started = await startCheckout(server, cookie, "pro-monthly", DETAILS, {
      switch: "1",
      coupon: "STAY30",
    });
    expect(started.status, started.body).toBe(200);
    const [next] = await server.sql(
      `select s.replaces_subscription_id is not null as replaces, c.code from subscriptions s join coupons c on c.id = s.coupon_id
         where s.provider_subscription_id = '${started.subscriptionId!}'`,
    );
    expect(next).toEqual({ replaces: true, code: "STAY30" });
  });

  it("gives a team's owner the same step, without an offer", async () => {
    const owner = (await customer()).cookie;
    const { team } = await teamWithPaidSeats(server, owner, "Leavers", 2);
    const step = await (await getWithCookies(server, `${team.path}/cancel`, owner)).text();
    expect(offersOn(step)).toBe(0);
    expect(textOf(step)).toContain("Cancel my subscription");
    const cancelled = await cancelThroughFlow(server, owner, {
      teamPath: team.path,
      reason: "other-app",
    });
    expect(cancelled.page).toMatch(
      /Cancelled: the seats give Pro until \d{1,2} [A-Z][a-z]{2} \d{4}, and nothing more is charged\./,
    );
    const [visit] = await server.sql(
      `select v.offer, v.reason, v.outcome from cancel_flow_visits v join subscriptions s on s.id = v.subscription_id where s.team_id = '${team.id}'`,
    );
    expect(visit).toEqual({ offer: null, reason: "other-app", outcome: "cancelled" });
    // Nothing left to cancel: the step sends the owner back to the team.
    const again = await getWithCookies(server, `${team.path}/cancel`, owner);
    expect(again.status).toBe(302);
  });
});
