/**
 * Issue 56, selling abroad, over HTTP on the sandbox: the pricing page's currency switch, a
 * business in Germany buying Pro yearly in dollars by international card, its export invoice and
 * the credit note of its refund (read back with pdftotext); and, without a Letter of Undertaking
 * for this financial year, no foreign currency offered and a foreign checkout refused with words,
 * nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfText } from "../support/pdf";
import { strFromU8, unzipSync } from "fflate";
import { financialYear } from "~/.server/invoices/engine.server";
import { parseCsv } from "../support/csv";
import {
  ADMIN_EMAIL,
  getWithCookies,
  postForm,
  signUpAdmin,
  signUpVerified,
} from "../support/auth";
import {
  ABROAD_DETAILS,
  DETAILS,
  postWebhook,
  requestSelfRefund,
  SANDBOX,
  sandboxApi,
  sandboxPay,
  signedWebhook,
  startCheckout,
} from "../support/billing";
import { formatDate } from "~/lib/dates";
import { istDay } from "~/lib/india-time";
import { httpEngine } from "../support/engines";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

const ARN = "AD2904260012345";
const LUT = { GST_LUT_ARN: ARN, GST_LUT_FINANCIAL_YEAR: financialYear(new Date()).label };

const flat = (text: string) => text.replace(/\s+/g, " ");

describe("selling abroad with a Letter of Undertaking for this year", () => {
  let server: RunningTestServer;
  let adminCookie: string | undefined;
  /** The administrator, signed up by the first test that needs them. */
  const admin = async () =>
    (adminCookie ??= await signUpAdmin(server, "selling-abroad-admin-password"));
  beforeAll(async () => {
    server = await startServerOn(httpEngine(), {
      env: {
        AUTH_RATE_LIMIT: "100",
        ...LUT,
        SELL_ABROAD_CURRENCIES: "USD,EUR",
        ADMIN_EMAILS: ADMIN_EMAIL,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows one currency at a time, switched by the visitor and remembered", async () => {
    const inr = await pageText(server, "/pricing?billing=yearly", "");
    expect(inr).toContain("Simple pricing in rupees");
    expect(inr).toContain("₹6,999");
    const usd = await pageText(server, "/pricing?billing=yearly&currency=USD", "");
    expect(usd).toContain("Simple pricing in US dollars");
    expect(usd).toContain("$89");
    expect(usd).toContain("No Indian GST for buyers outside India");
    // Nothing of the rupee page: no rupee price, no GST promise (its FAQ and table say export).
    expect(usd).not.toMatch(/₹\d|includes 18% GST|GST tax invoice/);
    expect(usd).toContain("Export invoice (no Indian GST)");
    expect(usd).toContain("We do not charge other countries' taxes");
    expect(await pageText(server, "/pricing?currency=EUR", "")).toContain("€8.50");

    const chosen = await fetch(`${server.url}/pricing/currency?to=USD&billing=yearly`, {
      redirect: "manual",
    });
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get("location")).toBe("/pricing?currency=USD&billing=yearly");
    const cookie = chosen.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^currency=USD; Path=\/; Max-Age=31536000; SameSite=Lax/);
    const back = await fetch(`${server.url}/pricing`, {
      headers: { cookie: "currency=USD" },
      redirect: "manual",
    });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/pricing?currency=USD");
    expect(back.headers.get("cache-control")).toBe("private, no-store");
    // A currency not sold is not remembered: back to rupees.
    const unknown = await fetch(`${server.url}/pricing/currency?to=GBP`, { redirect: "manual" });
    expect(unknown.headers.get("set-cookie")).toMatch(/^currency=INR;/);
  });

  it("sells Pro yearly in dollars to a business in Germany, invoiced as an export, and credits its refund", async () => {
    const cookie = await signUpVerified(server, {
      name: "Jonas",
      email: "jonas@werkbank.example",
      password: "selling-abroad-password-1",
    });
    const page = await pageText(server, "/checkout?plan=pro-yearly&currency=USD", cookie);
    expect(page).toContain("$89 / year");
    expect(page).toContain("None (export)");
    expect(page).toContain("VAT or tax id");

    // UPI is rupees only: the sandbox, like Razorpay, takes a card for a charge in dollars.
    const started = await startCheckout(server, cookie, "pro-yearly", ABROAD_DETAILS, {
      currency: "USD",
    });
    expect(started.status).toBe(200);
    const subscriptionId = started.subscriptionId!;
    expect((await sandboxPay(server, subscriptionId, "success", "upi")).status).toBe(400);
    const paid = await sandboxPay(server, subscriptionId, "success", "card", "international");
    expect(paid.status).toBe(200);
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await eventually(
      async () => /Plan Pro/.test(await pageText(server, "/account", cookie)),
      20_000,
      "Pro on /account",
    );
    await server.jobsSettled();

    const [stored] = await server.sql(
      `select currency from subscriptions where provider_subscription_id = '${subscriptionId}'`,
    );
    expect(stored?.currency).toBe("USD");
    const subscription = flat(await pageText(server, "/account/subscription", cookie));
    expect(subscription).toMatch(/renews on .* for \$89\./);
    expect(subscription).toContain("No Indian GST: a sale outside India, on an export invoice");
    expect(subscription).not.toMatch(/CGST|SGST|IGST/);

    const [payment] = await server.sql(
      `select amount_paise, currency, inr_value_paise from payments`,
    );
    expect(payment).toMatchObject({ amount_paise: 8900, currency: "USD" });
    const inrValue = Number(payment?.inr_value_paise);
    expect(Number.isSafeInteger(inrValue) && inrValue > 0).toBe(true);

    const documents = async () =>
      [
        ...(await (await getWithCookies(server, "/invoices", cookie)).text()).matchAll(
          /\/invoices\/([0-9a-f-]{36})\.pdf/g,
        ),
      ].map((match) => match[0]);
    const [invoiceUrl] = await documents();
    const invoice = pdfText(
      Buffer.from(await (await getWithCookies(server, invoiceUrl!, cookie)).arrayBuffer()),
    );
    const rupees = `₹${new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2 }).format(inrValue / 100)}`;
    expect(invoice).toContain("Export Invoice");
    expect(flat(invoice)).toContain(
      "SUPPLY MEANT FOR EXPORT UNDER LETTER OF UNDERTAKING WITHOUT PAYMENT OF INTEGRATED TAX.",
    );
    expect(invoice).toContain(`LUT ARN: ${ARN}`);
    expect(invoice).toContain("Country: Germany");
    expect(invoice).toContain("VAT / tax id: DE123456789");
    expect(invoice).toContain("$89.00");
    expect(invoice).toContain(rupees);
    expect(invoice).toContain("₹84.5000 per USD");
    expect(invoice).not.toMatch(/CGST|SGST/);

    // The cockpit counts it in rupees, at its payment's rate, split by currency.
    const monthly = Math.round(inrValue / 12);
    const inr = (paise: number) =>
      `₹${new Intl.NumberFormat("en-IN", { minimumFractionDigits: paise % 100 ? 2 : 0 }).format(paise / 100)}`;
    expect(flat(await pageText(server, "/admin/analytics", await admin()))).toContain(
      `sold in USD ${inr(monthly)}`,
    );

    // The buyer "moves" to India: refused while the dollar subscription runs, with the way out.
    const moved = await postForm(server, "/billing.data", cookie, {
      intent: "save-details",
      ...DETAILS,
    });
    expect(moved.status).toBe(409);
    expect(await moved.text()).toContain(
      "Your subscription is billed in US dollars to an address outside India",
    );

    expect((await requestSelfRefund(server, cookie)).status).toBe(200);
    await server.jobsSettled();
    const creditNoteUrl = (await documents()).find((url) => url !== invoiceUrl);
    expect(creditNoteUrl).toBeDefined();
    const credit = pdfText(
      Buffer.from(await (await getWithCookies(server, creditNoteUrl!, cookie)).arrayBuffer()),
    );
    expect(credit).toContain("Credit Note (Export)");
    expect(credit).toContain("$89.00");
    expect(credit).toContain(rupees);
    // Its refund counts in rupees too, at the payment's rate.
    expect(flat(await pageText(server, "/admin/analytics", await admin()))).toContain(
      `${inr(inrValue)} (1)`,
    );

    // The month's GSTR-1 ZIP: the export in Table 6A and its credit note in CDNUR, at their
    // rupee value, and neither in a domestic section.
    const zip = await getWithCookies(server, "/admin/invoices/gstr1-offline.zip", await admin());
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const sheet = (name: string) => parseCsv(strFromU8(files[name] ?? new Uint8Array()));
    const value = (inrValue / 100).toFixed(2);
    expect(sheet("exp.csv").slice(1)).toEqual([
      [
        "WOPAY",
        expect.stringMatching(/^PL\//),
        expect.any(String),
        value,
        "",
        "",
        "",
        "0",
        value,
        "0.00",
      ],
    ]);
    expect(
      sheet("cdnur.csv")
        .slice(1)
        .map((cells) => [cells[0], cells[5]]),
    ).toEqual([["EXPWOP", value]]);
    for (const domestic of ["b2b.csv", "b2cs.csv", "cdnr.csv"])
      expect(sheet(domestic).slice(1)).toEqual([]);

    // As the month's GSTR-1 reads them: two export documents at the same rupee value, no tax.
    const rows = await server.sql(
      `select kind, currency, currency_amount, total_paise, igst_paise from invoices order by issued_at, sequence`,
    );
    expect(rows).toEqual([
      {
        kind: "invoice",
        currency: "USD",
        currency_amount: 8900,
        total_paise: inrValue,
        igst_paise: 0,
      },
      {
        kind: "credit_note",
        currency: "USD",
        currency_amount: 8900,
        total_paise: inrValue,
        igst_paise: 0,
      },
    ]);
  });

  it("invoices a payment Razorpay did not value at the RBI reference rate the operator enters", async () => {
    const cookie = await signUpVerified(server, {
      name: "Mia",
      email: "mia@example.de",
      password: "selling-abroad-password-3",
    });
    const started = await startCheckout(
      server,
      cookie,
      "pro-monthly",
      { ...ABROAD_DETAILS, name: "Mia Krause", taxId: "" },
      { currency: "USD" },
    );
    const subscriptionId = started.subscriptionId!;
    const paid = await sandboxPay(server, subscriptionId, "success", "card", "international");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    await eventually(
      async () => /Plan Pro/.test(await pageText(server, "/account", cookie)),
      20_000,
      "Pro on /account",
    );
    // A renewal as a Razorpay event with no conversion in it (no base_amount).
    const subscription = await sandboxApi<Record<string, unknown>>(
      server.url,
      `/v1/subscriptions/${subscriptionId}`,
    );
    const paidAt = Math.floor(Date.now() / 1000);
    const payment = {
      id: "pay_NoRateNoRate01",
      entity: "payment",
      amount: 9_00,
      currency: "USD",
      status: "captured",
      method: "card",
      amount_refunded: 0,
      captured: true,
      international: true,
      card: { last4: "1881", network: "Visa" },
      notes: [],
      created_at: paidAt,
    };
    const delivery = signedWebhook(
      JSON.stringify({
        entity: "event",
        event: "subscription.charged",
        contains: ["subscription", "payment"],
        payload: { subscription: { entity: subscription }, payment: { entity: payment } },
        created_at: paidAt,
      }),
      SANDBOX.webhookSecret,
    );
    expect((await postWebhook(server.url, delivery)).status).toBe(200);
    await server.jobsSettled();
    expect(
      await server.sql(
        "select inr_value_paise from payments where provider_payment_id = 'pay_NoRateNoRate01'",
      ),
    ).toEqual([{ inr_value_paise: null }]);

    // The operator is told, enters the day's rate, and the invoice is issued at it.
    expect(flat(await pageText(server, "/admin", await admin()))).toContain(
      "1 export invoice waits for an RBI reference rate",
    );
    expect(await pageText(server, "/admin/exchange-rates", await admin())).toContain(
      "pay_NoRateNoRate01",
    );
    const day = istDay(new Date(paidAt * 1000));
    const refused = await postForm(server, "/admin/exchange-rates.data", await admin(), {
      intent: "enter-rate",
      currency: "USD",
      day,
      rate: "84.50251",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("with at most four decimals");
    const entered = await postForm(server, "/admin/exchange-rates.data", await admin(), {
      intent: "enter-rate",
      currency: "USD",
      day,
      rate: "84.5025",
    });
    expect(entered.status).toBe(200);
    expect(await entered.text()).toMatch(/Issued PL\/\d{2}-\d{2}\/\d{6}/);
    // $9.00 at ₹84.5025: 900 × 845025 ÷ 10000 = 76052.25 paise, ₹760.52, kept with the payment.
    expect(
      await server.sql(
        "select p.inr_value_paise, i.total_paise, i.currency_amount from payments p join invoices i on i.provider_payment_id = p.provider_payment_id where p.provider_payment_id = 'pay_NoRateNoRate01'",
      ),
    ).toEqual([{ inr_value_paise: 76052, total_paise: 76052, currency_amount: 900 }]);
    const invoices = [
      ...(await (await getWithCookies(server, "/invoices", cookie)).text()).matchAll(
        /\/invoices\/([0-9a-f-]{36})\.pdf/g,
      ),
    ].map((match) => match[0]);
    const texts = await Promise.all(
      invoices.map(async (url) =>
        pdfText(Buffer.from(await (await getWithCookies(server, url, cookie)).arrayBuffer())),
      ),
    );
    const renewal = texts.find((text) => text.includes("pay_NoRateNoRate01")) ?? "";
    expect(flat(renewal)).toContain(`RBI reference rate of ${formatDate(day)}`);
    expect(renewal).toContain("₹84.5025 per USD");
    expect(renewal).toContain("₹760.52");
    expect(await pageText(server, "/admin/exchange-rates", await admin())).toContain(
      "No export invoice is waiting for a rate.",
    );
  });

  it("refuses a coupon on a price abroad, with words", async () => {
    const cookie = await signUpVerified(server, {
      name: "Ana",
      email: "ana@example.es",
      password: "selling-abroad-password-2",
    });
    const refused = await startCheckout(
      server,
      cookie,
      "pro-monthly",
      { ...ABROAD_DETAILS, countryCode: "ES", taxId: "" },
      { currency: "EUR", coupon: "LAUNCH20" },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("Coupons apply to prices in rupees only.");
  });
});

describe("selling abroad without a Letter of Undertaking for this year", () => {
  let server: RunningTestServer;
  beforeAll(async () => {
    server = await startServerOn(httpEngine(), {
      env: {
        AUTH_RATE_LIMIT: "100",
        GST_LUT_ARN: ARN,
        GST_LUT_FINANCIAL_YEAR: "2019-20",
        ADMIN_EMAILS: ADMIN_EMAIL,
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("offers no foreign currency and refuses a foreign checkout with words, storing nothing", async () => {
    const pricing = await pageText(server, "/pricing?currency=USD", "");
    expect(pricing).toContain("Simple pricing in rupees");
    expect(pricing).not.toContain("US dollars");
    expect(pricing).not.toContain("$");

    const cookie = await signUpVerified(server, {
      name: "Jonas",
      email: "jonas@werkbank.example",
      password: "selling-abroad-password-1",
    });
    expect(await pageText(server, "/checkout?plan=pro-yearly&currency=USD", cookie)).toContain(
      "Prices in USD are not offered at the moment",
    );
    const refused = await startCheckout(server, cookie, "pro-yearly", ABROAD_DETAILS, {
      currency: "USD",
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toContain("Prices in US dollars are not offered at the moment");
    expect(refused.subscriptionId).toBeNull();
    expect(await server.sql("select count(*)::int as n from subscriptions")).toEqual([{ n: 0 }]);
    expect(await server.sql("select count(*)::int as n from billing_profiles")).toEqual([{ n: 0 }]);
    expect(
      await server.sql("select count(*)::int as n from provider_plans where currency <> 'INR'"),
    ).toEqual([{ n: 0 }]);

    // The operator is told why, and what to do.
    const admin = await signUpAdmin(server, "selling-abroad-admin-password");
    const dashboard = flat(await pageText(server, "/admin", admin));
    expect(dashboard).toContain(
      `Selling abroad is off: the Letter of Undertaking configured (${ARN}) is for 2019-20`,
    );
    expect(dashboard).toContain("set GST_LUT_ARN and GST_LUT_FINANCIAL_YEAR=");
  });
});
