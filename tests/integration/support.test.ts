/**
 * Issue 33, points 1 and 2: the support desk. A customer opens a ticket and gets its number and
 * one acknowledgement mail at once; the team answers from /admin/support (reply, internal note,
 * assign, close); the customer follows it on the site and by mail, in one mail thread, and a
 * reply reopens a closed ticket. Nobody else reads it: another customer gets 404, a customer
 * posting the team's forms 403. A ticket with no reply after 48 hours shows as overdue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { THREAD_PAGE_SIZE } from "~/.server/support/thread.server";
import { REPLIES_PER_HOUR } from "~/.server/support/tickets.server";
import { getWithCookies, postForm, signUpVerified, startWithAdmin } from "../support/auth";
import { pageText, textOf } from "../support/pages";
import { engines } from "../support/engines";
import { readOutbox } from "../support/mail";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "support-test-password-1";

describe.each(engines())("the support desk on $name", (engine) => {
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

  const mailsTo = (email: string, subject: RegExp) =>
    readOutbox(server.dataDir).filter(
      (mail) => mail.to.includes(email) && subject.test(mail.subject),
    );

  /** Opens a ticket as the page's form does; the ticket's number. */
  const openTicket = async (cookie: string, fields: Record<string, string>) => {
    const response = await postForm(server, "/account/support", cookie, {
      intent: "open",
      category: "billing",
      subject: "Charged twice for October",
      message: "My card shows two charges of ₹699 on 3 October. Please refund one.",
      ...fields,
    });
    expect(response.status, await response.clone().text()).toBe(302);
    const location = response.headers.get("location") ?? "";
    const number = /^\/account\/support\/(\d+)\?opened=1$/.exec(location)?.[1];
    expect(number, location).toBeDefined();
    return Number(number);
  };

  it("opens a ticket with a number and one acknowledgement mail; the form's errors are one per field", async () => {
    const email = "asha@example.com";
    const cookie = await signUpVerified(server, { name: "Asha Iyer", email, password: PASSWORD });

    // Every field wrong at once: each error beside its field, nothing stored, nothing mailed.
    const refused = await postForm(server, "/account/support", cookie, {
      intent: "open",
      category: "",
      subject: "x",
      message: "short",
      invoiceId: "",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    const refusedText = textOf(refusedHtml);
    expect(refusedText).toContain("Choose what your request is about.");
    expect(refusedText).toContain("Write a short subject (at least 3 characters).");
    expect(refusedText).toContain("Write at least 10 characters.");
    // What was typed comes back in the form drawn again (a browser without scripts shows it).
    expect(refusedHtml).toMatch(/name="subject"[^>]*value="x"/);
    expect(refusedHtml).toMatch(/>short<\/textarea>/);

    // An invoice that is not theirs (any id) is refused beside the field.
    const foreign = await postForm(server, "/account/support", cookie, {
      intent: "open",
      category: "billing",
      subject: "Invoice question",
      message: "Please check this invoice for me, thank you.",
      invoiceId: "00000000-0000-4000-8000-000000000000",
    });
    expect(foreign.status).toBe(400);
    expect(textOf(await foreign.text())).toContain("Choose one of your invoices from the list.");

    // The billing pages' "Still stuck?" links fill in what it is about.
    const prefilled = await (
      await getWithCookies(
        server,
        "/account/support?category=billing&subject=Subscription+sub_X+needs+fixing&category=x",
        cookie,
      )
    ).text();
    expect(prefilled).toMatch(/name="subject"[^>]*value="Subscription sub_X needs fixing"/);
    expect(prefilled).toMatch(/<option value="billing" selected="">/);

    const number = await openTicket(cookie, {});
    const page = await pageText(server, `/account/support/${number}?opened=1`, cookie);
    expect(page).toContain(`#${number} Charged twice for October`);
    expect(page).toContain(`Ticket #${number} is open.`);
    expect(page).toContain("Waiting for our reply");
    expect(page).toContain("My card shows two charges of ₹699 on 3 October.");
    expect(await pageText(server, "/account/support", cookie)).toContain(
      `#${number} Charged twice for October`,
    );

    await server.jobsSettled();
    const acknowledgements = mailsTo(email, new RegExp(`#${number}\\]`));
    expect(acknowledgements).toHaveLength(1);
    const [ack] = acknowledgements;
    expect(ack?.subject).toBe(`[Pinout #${number}] Charged twice for October`);
    expect(ack?.text).toContain(`ticket #${number}`);
    expect(ack?.text).toContain(`/account/support/${number}`);
    // Every support mail names the Grievance Officer.
    expect(ack?.text).toContain("Grievance Officer, Ananya Rao (Head of Customer Support)");
    expect(ack?.messageId).toMatch(/^<ticket-[0-9a-f-]{36}@127\.0\.0\.1>$/);
    expect(mailsTo(email, /./)).toHaveLength(2); // the verification mail and the acknowledgement
  });

  it("lets the team reply, note, assign and close; the customer follows by mail and page, and reopens by replying", async () => {
    const email = "ravi@example.com";
    const cookie = await signUpVerified(server, { name: "Ravi Kumar", email, password: PASSWORD });
    const number = await openTicket(cookie, {
      category: "app",
      subject: "Flashing fails on ESP32-S3",
      message: "Flashing stops at 37% with a timeout on my ESP32-S3 board.",
    });
    const deskPath = `/admin/support/${number}`;

    // The desk lists it as waiting, with the customer.
    const desk = await pageText(server, "/admin/support", boss);
    expect(desk).toContain(`#${number} Flashing fails on ESP32-S3`);
    expect(desk).toContain(email);

    // A customer posting the team's forms, or reading its page: refused.
    const asCustomer = await postForm(server, deskPath, cookie, {
      intent: "reply",
      message: "I am replying as if I were the team.",
    });
    expect(asCustomer.status).toBe(403);
    expect((await getWithCookies(server, deskPath, cookie)).status).toBe(403);

    // An internal note: on the team's page only, never mailed.
    const note = await postForm(server, deskPath, boss, {
      intent: "note",
      message: "Looks like the USB-serial driver issue from last week.",
    });
    expect(note.status).toBe(200);
    expect(await pageText(server, deskPath, boss)).toContain("internal note");

    const assigned = await postForm(server, deskPath, boss, {
      intent: "assign",
      assigneeId:
        /value="([^"]+)">Boss \(boss@example\.com\)/.exec(
          await (await getWithCookies(server, deskPath, boss)).text(),
        )?.[1] ?? "",
    });
    expect(assigned.status).toBe(200);
    expect(textOf(await assigned.text())).toContain(`#${number} is assigned to Boss.`);
    expect(await pageText(server, "/admin/support?view=waiting&mine=1", boss)).toContain(
      `#${number}`,
    );

    const reply = await postForm(server, deskPath, boss, {
      intent: "reply",
      message: "Please hold BOOT while flashing, then try again at 460800 baud.",
    });
    expect(reply.status).toBe(200);
    const customerPage = await pageText(server, `/account/support/${number}`, cookie);
    expect(customerPage).toContain("Please hold BOOT while flashing");
    expect(customerPage).toContain("Boss from the support team");
    expect(customerPage).toContain("Answered: waiting for you");
    expect(customerPage).not.toContain("USB-serial driver issue");

    const closed = await postForm(server, deskPath, boss, { intent: "close" });
    expect(closed.status).toBe(200);
    expect(await pageText(server, `/account/support/${number}`, cookie)).toContain("Closed");
    // Closing twice is refused, not a second mail.
    expect((await postForm(server, deskPath, boss, { intent: "close" })).status).toBe(409);

    // The customer's reply opens it again, waiting for the team.
    const again = await postForm(server, `/account/support/${number}`, cookie, {
      intent: "reply",
      message: "Still failing at 37%, even holding BOOT.",
    });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`/account/support/${number}?reopened=1`);
    expect(await pageText(server, deskPath, boss)).toContain("Waiting for us");
    // The customer's page lists it, linked to the desk.
    const operatorPage = await (
      await getWithCookies(
        server,
        `/admin-fix-subscription?email=${encodeURIComponent(email)}`,
        boss,
      )
    ).text();
    expect(textOf(operatorPage)).toMatch(
      new RegExp(
        `Support tickets[\\s\\S]*#${number} Flashing fails on ESP32-S3 The desktop app Waiting for us`,
      ),
    );
    expect(operatorPage).toContain(`href="/admin/support/${number}"`);

    await server.jobsSettled();
    const thread = mailsTo(email, new RegExp(`#${number}\\]`));
    expect(thread.map((mail) => mail.subject)).toEqual([
      `[Pinout #${number}] Flashing fails on ESP32-S3`,
      `Re: [Pinout #${number}] Flashing fails on ESP32-S3`,
      `Closed: [Pinout #${number}] Flashing fails on ESP32-S3`,
    ]);
    // One conversation in the customer's mail client: the others answer the first.
    const [first, ...rest] = thread;
    for (const mail of rest) expect(mail.inReplyTo).toBe(first?.messageId);
    expect(thread[1]?.text).toContain("Please hold BOOT while flashing");
    expect(thread.some((mail) => mail.text.includes("USB-serial driver issue"))).toBe(false);

    // The customer's data export holds the ticket as they see it: the thread, not the notes.
    const exported = await getWithCookies(server, "/account/security/export", cookie);
    expect(exported.status).toBe(200);
    const data = (await exported.json()) as {
      supportTickets: { number: number; subject: string; messages: { body: string }[] }[];
    };
    expect(data.supportTickets).toEqual([
      expect.objectContaining({ number, subject: "Flashing fails on ESP32-S3" }),
    ]);
    expect(data.supportTickets[0]?.messages.map((message) => message.body)).toEqual([
      "Flashing stops at 37% with a timeout on my ESP32-S3 board.",
      "Please hold BOOT while flashing, then try again at 460800 baud.",
      "Still failing at 37%, even holding BOOT.",
    ]);
  });

  it("shows another customer's ticket as not found, and its reply form refuses them", async () => {
    const owner = await signUpVerified(server, {
      name: "Meera",
      email: "meera@example.com",
      password: PASSWORD,
    });
    const other = await signUpVerified(server, {
      name: "Karan",
      email: "karan@example.com",
      password: PASSWORD,
    });
    const number = await openTicket(owner, { subject: "Private matter" });
    expect((await getWithCookies(server, `/account/support/${number}`, other)).status).toBe(404);
    const reply = await postForm(server, `/account/support/${number}`, other, {
      intent: "reply",
      message: "Reading someone else's ticket.",
    });
    expect(reply.status).toBe(404);
    expect(await pageText(server, "/account/support", other)).not.toContain("Private matter");
    expect(await pageText(server, `/admin/support/${number}`, boss)).not.toContain(
      "Reading someone else's ticket.",
    );
    // Not a number at all: the same 404.
    expect((await getWithCookies(server, "/account/support/abc", owner)).status).toBe(404);
  });

  it("flags a ticket with no reply after 48 hours as overdue, until the team replies", async () => {
    const cookie = await signUpVerified(server, {
      name: "Old",
      email: "old-ticket@example.com",
      password: PASSWORD,
    });
    const number = await openTicket(cookie, { subject: "Waiting a long time" });
    const overdueRow = new RegExp(`#${number} Waiting a long time Overdue: no reply after 48 h`);
    expect(await pageText(server, "/admin/support", boss)).not.toMatch(overdueRow);

    // The clock moved on: the ticket was opened 49 hours ago.
    await server.sql(
      `update support_tickets set created_at = now() - interval '49 hours' where number = ${number}`,
    );
    expect(await pageText(server, "/admin/support", boss)).toMatch(overdueRow);
    expect(await pageText(server, `/admin/support/${number}`, boss)).toMatch(
      /First reply Overdue since/,
    );

    await postForm(server, `/admin/support/${number}`, boss, {
      intent: "reply",
      message: "Sorry for the wait: looking at it now.",
    });
    expect(await pageText(server, "/admin/support?view=all", boss)).not.toMatch(
      new RegExp(`#${number} Waiting a long time Overdue`),
    );
  });

  it("finding 9: a customer's replies are rate limited, and a long thread is paged on both sides", async () => {
    const cookie = await signUpVerified(server, {
      name: "Chatty",
      email: "chatty@example.com",
      password: PASSWORD,
    });
    const number = await openTicket(cookie, { subject: "Replies without end" });
    const reply = (message: string) =>
      postForm(server, `/account/support/${number}`, cookie, { intent: "reply", message });
    for (let n = 1; n <= REPLIES_PER_HOUR; n += 1)
      expect((await reply(`Reply ${n} of a patient customer.`)).status, `reply ${n}`).toBe(302);
    const refused = await reply("One reply too many in an hour.");
    expect(refused.status).toBe(429);
    expect(textOf(await refused.text())).toMatch(
      new RegExp(
        `You have sent ${REPLIES_PER_HOUR} replies in the last hour\\. Wait \\d+ minutes?, or add everything to one reply\\.`,
      ),
    );
    const [stored] = await server.sql(
      `select count(*)::int as n from support_messages m join support_tickets t on t.id = m.ticket_id where t.number = ${number}`,
    );
    expect(Number(stored!.n)).toBe(REPLIES_PER_HOUR + 1);

    // A thread far longer than a page (written straight in: the limit above stops the form).
    const extra = 2 * THREAD_PAGE_SIZE + 10;
    await server.sql(
      `insert into support_messages (ticket_id, author_id, author_name, side, body, created_at)
       select t.id, t.user_id, 'Chatty', 'customer', 'Filler message ' || g || ' ' || repeat('x', 4000),
              now() + make_interval(secs => g)
       from support_tickets t, generate_series(1, ${extra}) g where t.number = ${number}`,
    );
    const total = REPLIES_PER_HOUR + 1 + extra;
    const shown = (html: string) =>
      [...textOf(html).matchAll(/Filler message (\d+)/g)].map((m) => Number(m[1]));
    for (const path of [`/account/support/${number}`, `/admin/support/${number}`]) {
      const who = path.startsWith("/admin") ? boss : cookie;
      const first = await (await getWithCookies(server, path, who)).text();
      // The newest page: the last THREAD_PAGE_SIZE messages, oldest of them first.
      expect(shown(first), path).toEqual(
        Array.from({ length: THREAD_PAGE_SIZE }, (_, i) => extra - THREAD_PAGE_SIZE + 1 + i),
      );
      // Each body twice (the HTML and the hydration data), and the page around them: the whole
      // thread would be nearly three times that.
      expect(first.length, path).toBeLessThan(2 * THREAD_PAGE_SIZE * 4096 + 100_000);
      expect(textOf(first), path).toContain(
        `Showing the newest ${THREAD_PAGE_SIZE} of ${total} messages.`,
      );
      expect(first, path).toContain(`href="${path}?page=2"`);
      // The oldest page holds the first message, and links back to newer ones.
      const pages = Math.ceil(total / THREAD_PAGE_SIZE);
      const last = await (await getWithCookies(server, `${path}?page=${pages}`, who)).text();
      expect(textOf(last), path).toContain("My card shows two charges of ₹699 on 3 October.");
      expect(last, path).toContain(`href="${path}?page=${pages - 1}"`);
      expect(last, path).not.toContain(`?page=${pages + 1}`);
    }
  });
});
