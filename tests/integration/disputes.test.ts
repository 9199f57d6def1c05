/**
 * Issue 59, point 4: disputes. A chargeback raised on the sandbox (as a bank raises it) reaches
 * the operator within one job cycle: an alert, today's queue with the evidence deadline, and the
 * dispute's page with the evidence the site holds. The same webhook delivered again, or replayed
 * under a new id, changes nothing. A lost dispute ends Pro as a refund does, with a credit note,
 * and the cockpit counts what was disputed and lost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, signUpVerified, startWithAdmin } from "../support/auth";
import {
  buyThroughSandbox,
  postWebhook,
  SANDBOX,
  sandboxApi,
  signedWebhook,
} from "../support/billing";
import { eventually } from "../support/eventually";
import { httpEngine } from "../support/engines";
import { pageText, sectionText } from "../support/pages";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "dispute-test-password-1";

describe("disputes", () => {
  let server: RunningTestServer;
  let boss = "";

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(httpEngine(), PASSWORD));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const todayText = async () =>
    sectionText(await (await getWithCookies(server, "/admin", boss)).text(), "today-heading");
  const count = async (statement: string) => Number((await server.sql(statement))[0]?.count ?? -1);

  /** A customer on Pro, and the id of the payment that bought it. */
  const paidCustomer = async (email: string) => {
    const cookie = await signUpVerified(server, { name: "Chargeback", email, password: PASSWORD });
    await buyThroughSandbox(server, cookie);
    const paymentId = await eventually(
      async () => {
        const [row] = await server.sql(
          `select p.provider_payment_id as id from payments p join "user" u on u.id = p.user_id
           where u.email = '${email}' and p.status = 'captured'`,
        );
        return typeof row?.id === "string" ? row.id : undefined;
      },
      20_000,
      "the captured payment",
    );
    // Its invoice is issued with the payment: the evidence the dispute page offers.
    await server.jobsSettled();
    return { cookie, paymentId };
  };

  it("reaches the operator once with its deadline and evidence; a lost one ends Pro with a credit note", async () => {
    const email = "chargeback@example.com";
    const { cookie, paymentId } = await paidCustomer(email);

    const dispute = await sandboxApi<{ id: string; respond_by: number; amount: number }>(
      server.url,
      `/control/payments/${paymentId}/dispute`,
      { method: "POST", body: "{}" },
    );
    expect(dispute.id).toMatch(/^disp_/);
    await server.jobsSettled();

    // One job cycle later: an alert, today's queue with the deadline, the dispute's page.
    expect(await count(`select count(*) from admin_alerts where kind = 'dispute'`)).toBe(1);
    const today = await todayText();
    expect(today).toContain("Disputes waiting for evidence (1)");
    expect(today).toContain(email);
    expect(today).toMatch(/evidence due \d{1,2} Dec 2026/);
    const page = await pageText(server, `/admin/disputes/${dispute.id}`, boss);
    expect(page).toContain("Open: answer with evidence by the deadline");
    expect(page).toContain(paymentId);
    expect(page).toMatch(/Invoice [A-Z0-9/-]+ \(PDF\)/);
    expect(page).toMatch(/Sign-ins \([1-9]\d*\)/);
    expect(page).toMatch(/Mails sent \([1-9]\d* mails?\)/);
    const invoice = await getWithCookies(server, `/admin/disputes/${dispute.id}/invoice.pdf`, boss);
    expect(invoice.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await invoice.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    // The customer cannot read it.
    expect(
      (await getWithCookies(server, `/admin/disputes/${dispute.id}/invoice.pdf`, cookie)).status,
    ).not.toBe(200);

    // The same delivery again, and the same body replayed under a new id: nothing more.
    const [stored] = await server.sql(
      `select event_id, raw_body from webhook_events where event = 'payment.dispute.created'`,
    );
    const body = String(stored?.raw_body);
    for (const eventId of [String(stored?.event_id), "evt_dispute_replay01"])
      expect(
        (await postWebhook(server.url, signedWebhook(body, SANDBOX.webhookSecret, eventId))).status,
      ).toBe(200);
    await server.jobsSettled();
    expect(await count(`select count(*) from disputes`)).toBe(1);
    expect(await count(`select count(*) from admin_alerts where kind = 'dispute'`)).toBe(1);

    // The cockpit counts it while undecided.
    const open = await pageText(server, "/admin/subscriptions", boss);
    expect(open).toMatch(/Disputed, waiting for a decision ₹[\d,]+ \(1\)/);

    // Lost: the bank takes the money back. Pro ends, as a refund ends it, with a credit note.
    await sandboxApi(server.url, `/control/disputes/${dispute.id}/lost`, { method: "POST" });
    await server.jobsSettled();
    expect(await count(`select count(*) from admin_alerts where kind = 'dispute'`)).toBe(2);
    expect(
      await count(
        `select count(*) from invoices where kind = 'credit_note' and provider_dispute_id = '${dispute.id}'`,
      ),
    ).toBe(1);
    expect(
      await count(
        `select count(*) from subscriptions s join "user" u on u.id = s.user_id
         where u.email = '${email}' and s.end_reason = 'dispute-lost'`,
      ),
    ).toBe(1);
    expect(await pageText(server, "/account", cookie)).not.toMatch(/Plan Pro/);
    const lost = await pageText(server, `/admin/disputes/${dispute.id}`, boss);
    expect(lost).toContain("Lost: the bank took the payment back");
    expect(lost).toMatch(/Credit note [A-Z0-9/-]+ \(PDF\)/);
    const customer = await pageText(
      server,
      `/admin-fix-subscription?email=${encodeURIComponent(email)}`,
      boss,
    );
    expect(customer).toContain("the customer's bank took the payment back");
    const cockpit = await pageText(server, "/admin/subscriptions", boss);
    expect(cockpit).toMatch(/Lost to disputes this month ₹[1-9][\d,]*/);
    expect(cockpit).toMatch(/Disputed, waiting for a decision ₹0 \(0\)/);
    expect((await todayText()).includes(email)).toBe(false);

    // A decided dispute cannot be decided again, and a late replay of its opening reopens nothing.
    expect(
      (await postWebhook(server.url, signedWebhook(body, SANDBOX.webhookSecret, "evt_late_open01")))
        .status,
    ).toBe(200);
    await server.jobsSettled();
    expect(String((await server.sql(`select status from disputes`))[0]?.status)).toBe("lost");
    expect(await count(`select count(*) from invoices where provider_dispute_id is not null`)).toBe(
      1,
    );
  });

  it("a won dispute keeps Pro and the money, and a decided one cannot be decided again", async () => {
    const email = "won-dispute@example.com";
    const { cookie, paymentId } = await paidCustomer(email);
    const alertsBefore = await count(`select count(*) from admin_alerts where kind = 'dispute'`);
    const dispute = await sandboxApi<{ id: string }>(
      server.url,
      `/control/payments/${paymentId}/dispute`,
      { method: "POST", body: "{}" },
    );
    await sandboxApi(server.url, `/control/disputes/${dispute.id}/under_review`, {
      method: "POST",
    });
    await sandboxApi(server.url, `/control/disputes/${dispute.id}/won`, { method: "POST" });
    const again = await fetch(
      `${server.url}/_sandbox/razorpay/control/disputes/${dispute.id}/lost`,
      {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${SANDBOX.keyId}:${SANDBOX.keySecret}`).toString("base64")}`,
        },
      },
    );
    expect(again.status).toBe(400);
    await server.jobsSettled();
    // Opened and won: two alerts; under review is not one.
    expect(await count(`select count(*) from admin_alerts where kind = 'dispute'`)).toBe(
      alertsBefore + 2,
    );
    expect(await pageText(server, `/admin/disputes/${dispute.id}`, boss)).toContain(
      "Won: the money stays",
    );
    expect(await pageText(server, "/account", cookie)).toMatch(/Plan Pro/);
    expect(
      await count(`select count(*) from invoices where provider_dispute_id = '${dispute.id}'`),
    ).toBe(0);
  });
});
