/**
 * Issue 36, points 6 to 8: coupon codes. The operator makes the offer in Razorpay's Dashboard
 * (the sandbox's control route), adds the coupon on /admin/coupons, and buyers see its price on
 * pricing and checkout. Razorpay charges the discount through the offer; every invoice shows it
 * before tax, and a refund's credit note gives back what was paid. Limits hold when two
 * checkouts take a coupon at once; a code that cannot be used says why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "~/lib/dates";
import { addIstDays, istDay } from "~/lib/india-time";
import { postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { sandboxApi, sandboxCharge, sandboxPay, startCheckout } from "../support/billing";
import { engines } from "../support/engines";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "coupon-test-password-1";

describe.each(engines())("coupons on $name", (engine) => {
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

  /** Razorpay's Dashboard: "Create offer". */
  const makeOffer = async (offer: Record<string, unknown>) =>
    (
      await sandboxApi<{ id: string }>(server.url, "/control/offers", {
        method: "POST",
        body: JSON.stringify({ name: "Offer", ...offer }),
      })
    ).id;
  const createCoupon = async (fields: Record<string, string>) => {
    const response = await postForm(server, "/admin/coupons", boss, {
      intent: "create",
      kind: "percent",
      duration: "once",
      offerMethod: "any",
      perCustomer: "1",
      ...fields,
    });
    return { status: response.status, text: await response.text() };
  };
  let buyers = 0;
  const newBuyer = (email = `buyer${++buyers}@example.com`) =>
    signUpVerified(server, { name: `Buyer ${buyers}`, email, password: PASSWORD });
  /** Start, pay and verify as the page does; waits for Pro. */
  const buy = async (cookie: string, plan: string, coupon: string) => {
    const started = await startCheckout(server, cookie, plan, undefined, { coupon });
    expect(started.status, started.body).toBe(200);
    const paid = await sandboxPay(server, started.subscriptionId!, "success");
    expect(paid.status).toBe(200);
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await eventually(
      async () => /Plan Pro/.test(await pageText(server, "/account", cookie)),
      20_000,
      "Pro after paying with a coupon",
    );
    return started.subscriptionId!;
  };
  const invoicesOf = (subscriptionId: string) =>
    server.sql(
      `select i.kind, i.taxable_paise, i.cgst_paise, i.sgst_paise, i.total_paise,
              i.document->'lines'->0->'discount' as discount
         from invoices i join payments p on p.provider_payment_id = i.provider_payment_id
         join subscriptions s on s.id = p.subscription_id
        where s.provider_subscription_id = '${subscriptionId}' and i.kind = 'invoice'
        order by i.sequence`,
    );
  const capturedOf = async (subscriptionId: string) =>
    (
      await server.sql(
        `select p.amount_paise from payments p join subscriptions s on s.id = p.subscription_id
          where s.provider_subscription_id = '${subscriptionId}' and p.status in ('captured', 'refunded')
          order by p.paid_at, p.recorded_at`,
      )
    ).map((row) => Number(row.amount_paise));
  const renew = async (subscriptionId: string, payments: number) => {
    expect((await sandboxCharge(`${server.url}/_sandbox/razorpay`, subscriptionId)).status).toBe(
      200,
    );
    await eventually(
      async () => (await invoicesOf(subscriptionId)).length === payments,
      20_000,
      `invoice ${payments}`,
    );
  };

  it("20% off the first three months: shown with its GST split, charged by the offer, invoiced before tax, kept after the coupon is disabled", async () => {
    const offerId = await makeOffer({
      type: "cycles",
      cycles: 3,
      discount_type: "percentage",
      discount_value: 20,
    });
    const made = await createCoupon({
      code: "launch20",
      amount: "20",
      duration: "cycles",
      cycles: "3",
      offerId,
      "plan-pro-monthly": "on",
      firstPurchaseOnly: "on",
    });
    expect(made.status, made.text).toBe(200);
    expect(made.text).toContain("LAUNCH20 is ready.");
    const admin = await pageText(server, "/admin/coupons", boss);
    expect(admin).toContain("20% off on the first 3 payments");
    expect(admin).toContain(offerId);

    // Pricing: the price with the coupon, for how long, then the price.
    const pricing = await pageText(server, "/pricing?coupon=launch20", "");
    expect(pricing).toContain("Coupon LAUNCH20: 20% off for the first 3 months.");
    expect(pricing).toContain(
      "₹559.20 a month for the first 3 months, then ₹699 a month, GST included.",
    );
    expect(await pageText(server, "/pricing?billing=yearly&coupon=LAUNCH20", "")).toContain(
      "The coupon LAUNCH20 is not for Pro (yearly); it is for Pro (monthly).",
    );

    const cookie = await newBuyer();
    // A first try without the coupon saves the billing details (the page then knows the state),
    // and leaves an open checkout that buying with the coupon lets go.
    expect((await startCheckout(server, cookie, "pro-monthly")).status).toBe(200);
    const checkout = await pageText(server, "/checkout?plan=pro-monthly&coupon=Launch20", cookie);
    expect(checkout).toContain("Coupon LAUNCH20: 20% off for the first 3 months.");
    // Karnataka, the supplier's state: CGST and SGST on the discounted price.
    expect(checkout).toContain(
      "₹559.20 is ₹473.90 + ₹42.65 CGST (9%) + ₹42.65 SGST (9%), as your tax invoice will show it (the discount comes off before GST).",
    );
    expect(checkout).toContain("Continue to payment: ₹559.20");

    const subscriptionId = await buy(cookie, "pro-monthly", "launch20");
    const atRazorpay = await sandboxApi<{ offer_id: string | null }>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
    expect(atRazorpay.offer_id).toBe(offerId);
    await eventually(async () => (await invoicesOf(subscriptionId)).length === 1);
    // The account says what the next charges come to, and what is left of the coupon.
    const account = await pageText(server, "/account/subscription", cookie);
    expect(account).toMatch(/Next charge ₹559\.20 on \d{1,2} [A-Z][a-z]{2} \d{4}/);
    expect(account).toContain(
      "LAUNCH20: 20% off for the first 3 months; 2 discounted payments to come.",
    );

    // Disabled now: nobody new can use it, and this subscription keeps its three months.
    const [coupon] = await server.sql(`select id from coupons where code = 'LAUNCH20'`);
    const disabled = await postForm(server, "/admin/coupons", boss, {
      intent: "disable",
      id: String(coupon!.id),
    });
    expect(disabled.status).toBe(200);
    expect(
      (
        await startCheckout(server, await newBuyer(), "pro-monthly", undefined, {
          coupon: "LAUNCH20",
        })
      ).body,
    ).toContain("The coupon LAUNCH20 has been withdrawn.");
    await renew(subscriptionId, 2);
    await renew(subscriptionId, 3);
    await renew(subscriptionId, 4);
    expect(await capturedOf(subscriptionId)).toEqual([55_920, 55_920, 55_920, 69_900]);
    const after = await pageText(server, "/account/subscription", cookie);
    expect(after).toMatch(/Next charge ₹699 on/);
    expect(after).toContain("its discounted payments are done, so the full price applies.");
    // The operator's customer page says it too.
    const [owner] = await server.sql(
      `select user_id from subscriptions where provider_subscription_id = '${subscriptionId}'`,
    );
    expect(await pageText(server, `/admin/customers/${String(owner!.user_id)}`, boss)).toContain(
      "Coupon LAUNCH20: 20% off for the first 3 months; its discounted payments are done, so the full price applies.",
    );

    const discounted = {
      kind: "invoice",
      taxable_paise: 47_390,
      cgst_paise: 4_265,
      sgst_paise: 4_265,
      total_paise: 55_920,
      discount: {
        label: "Coupon LAUNCH20",
        listPricePaise: 69_900,
        listTaxablePaise: 59_238,
        discountPaise: 11_848,
      },
    };
    expect(
      (await invoicesOf(subscriptionId)).map((row) => ({
        ...row,
        taxable_paise: Number(row.taxable_paise),
        cgst_paise: Number(row.cgst_paise),
        sgst_paise: Number(row.sgst_paise),
        total_paise: Number(row.total_paise),
      })),
    ).toEqual([
      discounted,
      discounted,
      discounted,
      {
        kind: "invoice",
        taxable_paise: 59_238,
        cgst_paise: 5_331,
        sgst_paise: 5_331,
        total_paise: 69_900,
        discount: null,
      },
    ]);

    // A refund of a discounted payment: its credit note gives back what was paid.
    const [first] = await server.sql(
      `select p.provider_payment_id from payments p join subscriptions s on s.id = p.subscription_id
        where s.provider_subscription_id = '${subscriptionId}' order by p.paid_at, p.recorded_at limit 1`,
    );
    await sandboxApi(server.url, `/v1/payments/${String(first!.provider_payment_id)}/refund`, {
      method: "POST",
      body: JSON.stringify({}),
    });
    const note = await eventually(async () => {
      const [row] = await server.sql(
        `select total_paise, taxable_paise, document->'lines'->0->'discount' as discount
           from invoices where kind = 'credit_note'
            and provider_refund_id in (select provider_refund_id from refunds
                                        where provider_payment_id = '${String(first!.provider_payment_id)}')`,
      );
      return row;
    });
    expect({
      ...note,
      total_paise: Number(note.total_paise),
      taxable_paise: Number(note.taxable_paise),
    }).toEqual({
      total_paise: 55_920,
      taxable_paise: 47_390,
      discount: null,
    });
  });

  it("₹200 off the first payment only, on any plan", async () => {
    const offerId = await makeOffer({
      type: "single_use",
      discount_type: "flat",
      discount_value: 20_000,
    });
    expect(
      (await createCoupon({ code: "FLAT200", kind: "flat", amount: "200", offerId })).status,
    ).toBe(200);
    const cookie = await newBuyer();
    expect(await pageText(server, "/checkout?plan=pro-monthly&coupon=FLAT200", cookie)).toContain(
      "Coupon FLAT200: ₹200 off on the first payment. ₹499 for the first month, then ₹699 a month, GST included.",
    );
    const subscriptionId = await buy(cookie, "pro-monthly", "FLAT200");
    await eventually(async () => (await invoicesOf(subscriptionId)).length === 1);
    await renew(subscriptionId, 2);
    expect(await capturedOf(subscriptionId)).toEqual([49_900, 69_900]);
    const [first, second] = await invoicesOf(subscriptionId);
    // ₹499: taxable ₹422.88 (₹592.38 listed, ₹169.50 off), CGST and SGST ₹38.06 each.
    expect(first).toMatchObject({ discount: { discountPaise: 16_950, listTaxablePaise: 59_238 } });
    expect(Number(first!.taxable_paise)).toBe(42_288);
    expect(Number(first!.cgst_paise) + Number(first!.sgst_paise)).toBe(7_612);
    expect(second!.discount).toBeNull();
  });

  it("says why a code cannot be used: unknown, not yet, expired, for a first purchase only", async () => {
    const offerId = await makeOffer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 10,
    });
    const today = istDay(new Date());
    expect(
      (
        await createCoupon({
          code: "OVER",
          amount: "10",
          offerId,
          validUntil: addIstDays(today, -1),
          validFrom: addIstDays(today, -5),
        })
      ).status,
    ).toBe(200);
    expect(
      (await createCoupon({ code: "SOON", amount: "10", offerId, validFrom: addIstDays(today, 2) }))
        .status,
    ).toBe(200);
    expect(
      (await createCoupon({ code: "NEWONLY", amount: "10", offerId, firstPurchaseOnly: "on" }))
        .status,
    ).toBe(200);

    const cookie = await newBuyer();
    const lastDay = formatDate(`${addIstDays(today, -1)}T12:00:00+05:30`, "long");
    const firstDay = formatDate(`${addIstDays(today, 2)}T12:00:00+05:30`, "long");
    const cases: [string, string][] = [
      ["NOPE", "There is no coupon NOPE. Check the spelling."],
      ["over", `The coupon OVER expired on ${lastDay}.`],
      ["SOON", `The coupon SOON can be used from ${firstDay}.`],
    ];
    for (const [code, message] of cases) {
      expect(await pageText(server, `/checkout?plan=pro-monthly&coupon=${code}`, cookie)).toContain(
        message,
      );
      const refused = await startCheckout(server, cookie, "pro-monthly", undefined, {
        coupon: code,
      });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body).toContain(message);
    }
    // Someone who has paid for Pro before: not a first purchase.
    const [user] = await server.sql(
      `select id from "user" where email = 'buyer${buyers}@example.com'`,
    );
    await server.sql(
      `insert into subscriptions (provider_subscription_id, user_id, plan_id, provider_plan_id, status, paid_count, synced_at)
       values ('sub_Earlier0000001', '${String(user!.id)}', 'pro-monthly', 'plan_x', 'cancelled', 2, now())`,
    );
    expect(await pageText(server, "/checkout?plan=pro-monthly&coupon=NEWONLY", cookie)).toContain(
      "The coupon NEWONLY is for a first purchase, and this account has paid for Pro before.",
    );
  });

  it("holds its limits when two checkouts take it at once; an abandoned checkout gives its use back", async () => {
    const offerId = await makeOffer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 10,
    });
    expect(
      (
        await createCoupon({
          code: "ONLYONE",
          amount: "10",
          offerId,
          maxRedemptions: "1",
          perCustomer: "1",
        })
      ).status,
    ).toBe(200);
    const [a, b] = await Promise.all([newBuyer(), newBuyer()]);
    const both = await Promise.all(
      [a, b].map((cookie) =>
        startCheckout(server, cookie, "pro-monthly", undefined, { coupon: "ONLYONE" }),
      ),
    );
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    // Nobody has paid yet: the last use is held by the other checkout (issue 53, finding 7).
    expect(both.find((answer) => answer.status === 409)?.body).toContain(
      "Every use left of the coupon ONLYONE is held by a checkout that is not paid yet.",
    );
    expect(await pageText(server, "/admin/coupons", boss)).toMatch(/ONLYONE.*1 of 1/);

    // The holder changes their mind and buys without it: their open checkout is let go, and the
    // coupon's one use is free again.
    const [holder, other] = both[0]!.status === 200 ? [a!, b!] : [b!, a!];
    expect((await startCheckout(server, holder, "pro-monthly")).status).toBe(200);
    expect(
      (await startCheckout(server, other, "pro-monthly", undefined, { coupon: "ONLYONE" })).status,
    ).toBe(200);

    // One per person: two accounts on one Gmail mailbox, at once.
    expect(
      (await createCoupon({ code: "PERPERSON", amount: "10", offerId, perCustomer: "1" })).status,
    ).toBe(200);
    const [first, second] = await Promise.all([
      newBuyer("meera.iyer@gmail.com"),
      newBuyer("meera.iyer+shop@gmail.com"),
    ]);
    const mailbox = await Promise.all(
      [first, second].map((cookie) =>
        startCheckout(server, cookie!, "pro-monthly", undefined, { coupon: "PERPERSON" }),
      ),
    );
    expect(mailbox.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(mailbox.find((answer) => answer.status === 409)?.body).toContain(
      "You have already used the coupon PERPERSON.",
    );
  });

  it("refuses a coupon the offer could not honour, and a code already taken", async () => {
    const offerId = await makeOffer({
      type: "single_use",
      discount_type: "flat",
      discount_value: 100,
    });
    const tooMuch = await createCoupon({
      code: "ALMOSTFREE",
      kind: "flat",
      amount: "698.50",
      offerId,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain(
      "That leaves ₹1 or less to pay for Pro (monthly); Razorpay does not apply such an offer.",
    );
    expect((await createCoupon({ code: "TAKEN", amount: "10", offerId })).status).toBe(200);
    const again = await createCoupon({ code: "taken", amount: "15", offerId });
    expect(again.status).toBe(409);
    expect(again.text).toContain("There is already a coupon TAKEN.");
    const bad = await createCoupon({
      code: "x",
      amount: "120",
      offerId: "nope",
      duration: "cycles",
    });
    expect(bad.status).toBe(400);
    for (const message of [
      "Use 3–32 letters, digits or hyphens.",
      "Paste the offer id from Razorpay",
      "Enter 2 to 120 payments.",
      "Enter a whole percent, 1 to 95.",
    ])
      expect(bad.text).toContain(message);
  });

  /** A coupon of 10% off every charge (₹629.10 a month), as /admin/coupons makes it. */
  const tenPercent = async (code: string, fields: Record<string, string> = {}) => {
    const offerId = await makeOffer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 10,
    });
    const made = await createCoupon({ code, amount: "10", offerId, ...fields });
    expect(made.status, made.text).toBe(200);
  };
  const statusAtRazorpay = async (subscriptionId: string) =>
    (await sandboxApi<{ status: string }>(server.url, `/v1/subscriptions/${subscriptionId}`))
      .status;
  /** Pays in the sandbox's window and posts the handler's answer as the page does. */
  const payAndVerify = async (cookie: string, subscriptionId: string, method: "card" | "upi") => {
    const paid = await sandboxPay(server, subscriptionId, "success", method);
    expect(paid.status).toBe(200);
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    return eventually(
      async () => (await capturedOf(subscriptionId)).length === 1 && capturedOf(subscriptionId),
      20_000,
      "the payment recorded",
    );
  };

  it("finding 6: a checkout reused after its coupon was disabled is replaced at the full price, and the buyer is told", async () => {
    await tenPercent("RESUMED10");
    const cookie = await newBuyer();
    const opened = await startCheckout(server, cookie, "pro-monthly", undefined, {
      coupon: "RESUMED10",
    });
    expect(opened.status, opened.body).toBe(200);
    expect(opened.body).toContain("first payment ₹629.10 with RESUMED10");

    const [coupon] = await server.sql(`select id from coupons where code = 'RESUMED10'`);
    expect(
      (
        await postForm(server, "/admin/coupons", boss, {
          intent: "disable",
          id: String(coupon!.id),
        })
      ).status,
    ).toBe(200);

    // The page opened before the coupon was disabled posts it again.
    const resumed = await startCheckout(server, cookie, "pro-monthly", undefined, {
      coupon: "RESUMED10",
    });
    expect(resumed.status, resumed.body).toBe(200);
    expect(resumed.body).toContain(
      "The coupon RESUMED10 has been withdrawn. Your checkout is now at the full price, ₹699 / month.",
    );
    expect(resumed.subscriptionId).not.toBe(opened.subscriptionId);
    expect(await statusAtRazorpay(opened.subscriptionId!)).toBe("cancelled");
    const atRazorpay = await sandboxApi<{ offer_id: string | null }>(
      server.url,
      `/v1/subscriptions/${resumed.subscriptionId}`,
    );
    expect(atRazorpay.offer_id).toBeNull();
    expect(await payAndVerify(cookie, resumed.subscriptionId!, "card")).toEqual([69_900]);
  });

  it("finding 7: checkouts nobody pays hold a coupon's uses only briefly", async () => {
    await tenPercent("TWOUSES", { maxRedemptions: "2" });
    for (const cookie of [await newBuyer(), await newBuyer()])
      expect(
        (await startCheckout(server, cookie, "pro-monthly", undefined, { coupon: "TWOUSES" }))
          .status,
      ).toBe(200);
    const third = await newBuyer();
    const refused = await startCheckout(server, third, "pro-monthly", undefined, {
      coupon: "TWOUSES",
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(
      "Every use left of the coupon TWOUSES is held by a checkout that is not paid yet. Try again in 30 minutes",
    );
    // Half an hour on, neither was paid: their uses are free again.
    await server.sql(
      `update coupon_redemptions set created_at = now() - interval '31 minutes'
        where coupon_id = (select id from coupons where code = 'TWOUSES')`,
    );
    const later = await startCheckout(server, third, "pro-monthly", undefined, {
      coupon: "TWOUSES",
    });
    expect(later.status, later.body).toBe(200);
    expect(await pageText(server, "/admin/coupons", boss)).toMatch(/TWOUSES.*1 of 2/);
  });

  it.each(["card", "upi"] as const)(
    "finding 7: a buyer who closes the payment window keeps the coupon and pays its price on the retry (%s)",
    async (method) => {
      const code = `RETRY-${method.toUpperCase()}`;
      await tenPercent(code);
      const cookie = await newBuyer();
      const opened = await startCheckout(server, cookie, "pro-monthly", undefined, {
        coupon: code,
      });
      expect(opened.status, opened.body).toBe(200);
      // The window is closed (a failed attempt too); the buyer comes back to the page.
      expect((await sandboxPay(server, opened.subscriptionId!, "failure", method)).status).toBe(
        400,
      );
      const page = await pageText(server, `/checkout?plan=pro-monthly&coupon=${code}`, cookie);
      expect(page).not.toContain(`You have already used the coupon ${code}`);
      expect(page).toContain("Continue to payment: ₹629.10");
      const retried = await startCheckout(server, cookie, "pro-monthly", undefined, {
        coupon: code,
      });
      expect(retried.status, retried.body).toBe(200);
      expect(retried.subscriptionId).toBe(opened.subscriptionId);
      expect(await payAndVerify(cookie, retried.subscriptionId!, method)).toEqual([62_910]);
    },
  );

  it("finding 7: Razorpay refusing a coupon's offer at checkout is said in a plain sentence", async () => {
    const offerId = await makeOffer({
      type: "forever",
      discount_type: "percentage",
      discount_value: 10,
    });
    expect((await createCoupon({ code: "OFFEROFF", amount: "10", offerId })).status).toBe(200);
    await sandboxApi(server.url, `/control/offers/${offerId}/disable`, { method: "POST" });
    const refused = await startCheckout(server, await newBuyer(), "pro-monthly", undefined, {
      coupon: "OFFEROFF",
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain(
      "The coupon OFFEROFF cannot be used at the moment. Buy without it at the full price, or write to us and we will sort it out.",
    );
    expect(refused.body).not.toContain("Razorpay:");
  });
});
