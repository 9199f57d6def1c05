/**
 * Issue 33, point 5: one page per customer, /admin/customers/:id, reached from /admin/users and
 * /admin/subscriptions, with everything on one timeline (a failed renewal with its
 * subscription, the invoice, the ticket, every mail sent and whether it left) and a filter by
 * kind; /admin-fix-subscription?email= is the same page; a customer gets 403, an unknown id 404.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { buyThroughSandbox, sandboxCharge, sandboxPay, startCheckout } from "../support/billing";
import { eventually } from "../support/eventually";
import { textOf } from "../support/pages";
import { engines } from "../support/engines";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "customer-page-password-1";

describe.each(engines())("the operator's customer page on $name", (engine) => {
  let server: RunningTestServer;
  let boss: string;

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "100" },
    }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const html = async (path: string, cookie = boss) => {
    const response = await getWithCookies(server, path, cookie);
    return { status: response.status, html: await response.text() };
  };
  /** The kinds whose box is ticked in the timeline's filter. */
  const checkedKinds = (page: string) =>
    [...page.matchAll(/<input[^>]*name="show"[^>]*>/g)]
      .filter((match) => /\schecked(="")?/.test(match[0]))
      .map((match) => /value="(\w+)"/.exec(match[0])?.[1]);
  /** The timeline's entries as [kind, text] pairs, newest first. */
  const timelineOf = (page: string) =>
    [...page.matchAll(/data-testid="timeline-entry" data-kind="(\w+)">([\s\S]*?)<\/li>/g)].map(
      (match) => [match[1], textOf(match[2] ?? "")] as const,
    );

  it("shows a customer's failed renewal, invoice, ticket and mails on one timeline, reached from the lists", async () => {
    const email = "timeline@example.com";
    const cookie = await signUpVerified(server, { name: "Tara", email, password: PASSWORD });
    const subscriptionId = await buyThroughSandbox(server, cookie);
    await server.jobsSettled();
    expect(
      (await sandboxCharge(`${server.url}/_sandbox/razorpay`, subscriptionId, true)).status,
    ).toBe(200);
    const opened = await postForm(server, "/account/support", cookie, {
      intent: "open",
      category: "billing",
      subject: "My renewal failed",
      message: "The bank says the mandate is fine. What happened?",
    });
    expect(opened.status).toBeLessThan(400);
    await server.jobsSettled();

    // Reached from the users search and the subscriptions list, by id.
    const users = await html(`/admin/users?q=${encodeURIComponent(email)}`);
    const path = /href="(\/admin\/customers\/[^"]+)"/.exec(users.html)?.[1] ?? "";
    expect(path).toMatch(/^\/admin\/customers\/\w+/);
    expect((await html(`/admin/subscriptions?q=${subscriptionId}`)).html).toContain(
      `href="${path}"`,
    );

    const page = await html(path);
    expect(page.status).toBe(200);
    const entries = timelineOf(page.html);
    const texts = entries.map(([kind, text]) => `${kind}: ${text}`);
    // The failed renewal, with its subscription on the same page, marked as a problem.
    expect(texts).toContainEqual(
      expect.stringMatching(/^payments: .*Problem: Payment of ₹699 failed/),
    );
    expect(texts).toContainEqual(expect.stringMatching(/^payments: .*Payment of ₹699 captured/));
    expect(texts).toContainEqual(
      expect.stringMatching(
        new RegExp(`^billing: .*Subscription created: Pro \\(monthly\\) ${subscriptionId}`),
      ),
    );
    expect(texts).toContainEqual(expect.stringMatching(/^documents: .*Invoice \S+ issued ₹699/));
    expect(texts).toContainEqual(
      expect.stringMatching(/^support: .*Ticket #\d+ opened: My renewal failed/),
    );
    expect(texts).toContainEqual(expect.stringMatching(/^account: .*Signed up/));
    // Every mail the customer was sent, with its subject, each once: the verification, the
    // receipt with the invoice, the failed-payment notice and the ticket's acknowledgement.
    const mails = entries.filter(([kind]) => kind === "mail").map(([, text]) => text);
    expect(mails.map((text) => text.replace(/^.*?Mail sent: /, "").trim()).sort()).toEqual([
      "Action needed: your Pinout payment failed",
      "Confirm your email for Pinout",
      "Payment received: ₹699 for Pinout Pro (monthly)",
      expect.stringMatching(/^\[Pinout #\d+\] My renewal failed$/),
    ]);
    // Newest first.
    const times = [...page.html.matchAll(/data-kind="\w+"><time dateTime="([^"]+)"/g)].map(
      (match) => match[1] ?? "",
    );
    expect(times.length).toBe(entries.length);
    expect([...times].sort().reverse()).toEqual(times);
    // The operator's tools are on this page too (the same actions as /admin-fix-subscription).
    expect(page.html).toContain('name="intent" value="cancel"');

    // Filtered to mails: only mails, and the box stays ticked.
    const onlyMail = await html(`${path}?show=mail`);
    const filtered = timelineOf(onlyMail.html);
    expect(filtered.length).toBe(mails.length);
    expect(filtered.every(([kind]) => kind === "mail")).toBe(true);
    expect(checkedKinds(onlyMail.html)).toEqual(["mail"]);
    expect(checkedKinds(page.html)).toEqual([]);
    // An unknown kind is ignored (everything shown), never an error.
    expect(timelineOf((await html(`${path}?show=nonsense`)).html).length).toBe(entries.length);

    // The cockpit's failed-payment recovery counts it, then counts it recovered once the
    // customer's next charge goes through.
    // The last cell of the revenue table's first row: this month's failed-payment recovery.
    const recovery = async () => {
      const page = (await html("/admin/analytics")).html;
      const section = /<section aria-labelledby="revenue"[\s\S]*?<\/section>/.exec(page)?.[0] ?? "";
      const row = /<tbody>\s*<tr[\s\S]*?<\/tr>/.exec(section)?.[0] ?? "";
      return [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)]
        .map((cell) => textOf(cell[1] ?? "").trim())
        .at(-1);
    };
    expect(await recovery()).toBe("0 of 1 (0.0%)");
    expect((await sandboxCharge(`${server.url}/_sandbox/razorpay`, subscriptionId)).status).toBe(
      200,
    );
    // The sandbox sends the charge's webhooks on its own time.
    await eventually(
      async () => (await recovery()) === "1 of 1 (100.0%)",
      20_000,
      "the recovery counted",
    );

    // The specification's address is the same page. Read both once the charge's work (its
    // mail) is done: a mail sent between the two reads is one more entry on the second.
    await server.jobsSettled();
    const byEmail = await html(`/admin-fix-subscription?email=${encodeURIComponent(email)}`);
    expect(timelineOf(byEmail.html)).toEqual(timelineOf((await html(path)).html));
  });

  it("refuses a customer with 403 and answers an unknown id with 404", async () => {
    const cookie = await signUpVerified(server, {
      name: "Nosy",
      email: "nosy-customer@example.com",
      password: PASSWORD,
    });
    const users = await html("/admin/users?q=nosy-customer");
    const path = /href="(\/admin\/customers\/[^"]+)"/.exec(users.html)?.[1] ?? "";
    expect((await html(path, cookie)).status).toBe(403);
    expect((await html("/admin/customers/no-such-customer")).status).toBe(404);
    // /metrics does not exist on a site that configured no way to read it (issue 35, point 3).
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  it("a new customer's failed first payment is hers: named on Today and on her page (issue 54)", async () => {
    const email = "first-try@example.com";
    const cookie = await signUpVerified(server, { name: "Dia", email, password: PASSWORD });
    const started = await startCheckout(server, cookie, "pro-monthly");
    expect(started.subscriptionId).toMatch(/^sub_/);
    const failed = await sandboxPay(server, started.subscriptionId!, "failure");
    expect(failed.status).toBeLessThan(500);
    await server.jobsSettled();

    const [payment] = await server.sql(
      `select p.user_id is not null as linked, u.email from payments p left join "user" u on u.id = p.user_id
       where p.status = 'failed' and p.user_id is not distinct from (select id from "user" where email = '${email}')`,
    );
    expect(payment).toEqual({ linked: true, email });
    const today = textOf((await html("/admin")).html);
    expect(today).toMatch(new RegExp(`${email.replace(".", "\\.")}[^]*₹699`));
    expect(today).not.toContain("deleted account");
    const users = await html(`/admin/users?q=${encodeURIComponent(email)}`);
    const path = /href="(\/admin\/customers\/[^"]+)"/.exec(users.html)?.[1] ?? "";
    expect(textOf((await html(path)).html)).toMatch(/Payment of ₹699 failed/);
  });
});
