import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import {
  couponRedemptions,
  coupons,
  invitation,
  organization,
  user,
  feedback,
  mailLog,
  supportMessages,
  supportTickets,
  selfRefunds,
  trials,
} from "../db/schema";
import { prunePersonalData } from "./retention.server";

const NOW = new Date("2026-11-28T06:00:00.000Z");
const monthsAgo = (months: number) => {
  const date = new Date(NOW);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date;
};

describe("the privacy policy's retention, enforced", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test?.close();
  });

  it("deletes feedback after 24 months, a support conversation 24 months after it closed, a mail's record after 12", async () => {
    const userId = await insertUser(test.db, { email: "retention@example.com" });
    await test.db.insert(feedback).values([
      {
        email: "old@example.com",
        category: "bug",
        message: "old message",
        createdAt: monthsAgo(25),
      },
      {
        email: "new@example.com",
        category: "bug",
        message: "new message",
        createdAt: monthsAgo(23),
      },
    ]);
    const ticket = (subject: string, createdAt: Date, closedAt: Date | null) => ({
      userId,
      category: "app" as const,
      subject,
      status: closedAt ? ("closed" as const) : ("open" as const),
      createdAt,
      lastMessageAt: closedAt ?? createdAt,
      closedAt,
    });
    const inserted = await test.db
      .insert(supportTickets)
      .values([
        ticket("closed long ago", monthsAgo(30), monthsAgo(25)),
        ticket("closed lately", monthsAgo(30), monthsAgo(23)),
        // Opened long ago and still going: a conversation that has not ended.
        ticket("still open", monthsAgo(30), null),
      ])
      .returning({ id: supportTickets.id, subject: supportTickets.subject });
    await test.db.insert(supportMessages).values(
      inserted.map((row) => ({
        ticketId: row.id,
        authorName: "Retention",
        side: "customer" as const,
        body: `about ${row.subject}`,
      })),
    );

    const mail = (key: string, lastAttemptAt: Date) => ({
      key,
      recipient: "retention@example.com",
      subject: key,
      status: "sent" as const,
      firstAttemptAt: lastAttemptAt,
      lastAttemptAt,
    });
    await test.db
      .insert(mailLog)
      .values([
        mail("mailed 13 months ago", monthsAgo(13)),
        mail("mailed 11 months ago", monthsAgo(11)),
      ]);

    const trial = (mailboxKey: string, endsAt: Date) => ({
      mailboxKey,
      planId: "pro-monthly",
      source: "site" as const,
      startedAt: endsAt,
      endsAt,
    });
    await test.db
      .insert(trials)
      .values([
        trial("ended 37 months ago", monthsAgo(37)),
        trial("ended 35 months ago", monthsAgo(35)),
      ]);

    const [coupon] = await test.db
      .insert(coupons)
      .values({
        code: "OLD",
        kind: "percent",
        amount: 10,
        duration: "once",
        providerOfferId: "offer_Old000000001",
      })
      .returning();
    const use = (mailboxKey: string, createdAt: Date) => ({
      couponId: coupon?.id ?? "",
      mailboxKey,
      createdAt,
    });
    await test.db
      .insert(couponRedemptions)
      .values([use("used 37 months ago", monthsAgo(37)), use("used 35 months ago", monthsAgo(35))]);

    // Team invitations name a person's address: kept 30 days after they expired.
    await test.db
      .insert(user)
      .values({ id: "inviter", name: "Inviter", email: "inviter@example.com" });
    await test.db
      .insert(organization)
      .values({ id: "org", name: "Org", slug: "org", createdAt: NOW });
    const invite = (email: string, daysAgo: number) => ({
      id: email,
      organizationId: "org",
      email,
      role: "member",
      inviterId: "inviter",
      expiresAt: new Date(NOW.getTime() - daysAgo * 86_400_000),
    });
    await test.db
      .insert(invitation)
      .values([invite("expired31@example.com", 31), invite("expired29@example.com", 29)]);

    // A customer's own refund (issue 53, finding 3): its record and mailbox fingerprint, 36 months.
    await test.db.insert(selfRefunds).values([
      {
        mailboxKey: "refunded 37 months ago",
        providerPaymentId: "pay_a",
        requestedAt: monthsAgo(37),
      },
      {
        mailboxKey: "refunded 35 months ago",
        providerPaymentId: "pay_b",
        requestedAt: monthsAgo(35),
      },
    ]);

    expect(await prunePersonalData(test.db, NOW)).toEqual({
      feedback: 1,
      supportTickets: 1,
      mails: 1,
      trials: 1,
      couponUses: 1,
      ownRefunds: 1,
      invitations: 1,
    });
    expect((await test.db.select().from(selfRefunds)).map((row) => row.mailboxKey)).toEqual([
      "refunded 35 months ago",
    ]);
    expect(fs.readFileSync("content/legal/privacy.md", "utf8")).toContain(
      "| 36 months after the refund |",
    );
    expect((await test.db.select().from(invitation)).map((row) => row.email)).toEqual([
      "expired29@example.com",
    ]);
    expect((await test.db.select().from(couponRedemptions)).map((row) => row.mailboxKey)).toEqual([
      "used 35 months ago",
    ]);
    expect(fs.readFileSync("content/legal/privacy.md", "utf8")).toContain(
      "| 36 months after you used the code |",
    );
    // What the privacy policy says: a trial's mailbox fingerprint, 36 months after it ended.
    expect((await test.db.select().from(trials)).map((row) => row.mailboxKey)).toEqual([
      "ended 35 months ago",
    ]);
    expect(fs.readFileSync("content/legal/privacy.md", "utf8")).toContain(
      "| 36 months after the trial ends |",
    );
    expect((await test.db.select().from(mailLog)).map((row) => row.key)).toEqual([
      "mailed 11 months ago",
    ]);
    expect((await test.db.select().from(feedback)).map((row) => row.message)).toEqual([
      "new message",
    ]);
    expect((await test.db.select().from(supportTickets)).map((row) => row.subject).sort()).toEqual([
      "closed lately",
      "still open",
    ]);
    // The deleted conversation's messages went with it.
    expect((await test.db.select().from(supportMessages)).map((row) => row.body).sort()).toEqual([
      "about closed lately",
      "about still open",
    ]);
    // Running again deletes nothing more.
    expect(await prunePersonalData(test.db, NOW)).toEqual({
      feedback: 0,
      supportTickets: 0,
      mails: 0,
      trials: 0,
      couponUses: 0,
      ownRefunds: 0,
      invitations: 0,
    });
  });
});
