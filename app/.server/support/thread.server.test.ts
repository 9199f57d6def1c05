/**
 * A ticket's thread, beside its module: paged newest first (issue 53, finding 9: 300 replies made
 * the operator's page 2.5 MB), oldest first within a page, and the team's internal notes only for
 * the team.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { supportMessages, supportTickets } from "../db/schema";
import { THREAD_PAGE_SIZE, threadPage, threadPageOf } from "./thread.server";

describe("a ticket's thread", () => {
  let test: TestDatabase;
  let ticketId = "";
  const replies = THREAD_PAGE_SIZE + 7;

  beforeAll(async () => {
    test = await openTestDatabase();
    const userId = await insertUser(test.db, { email: "asker@example.com" });
    const [ticket] = await test.db
      .insert(supportTickets)
      .values({ userId, category: "billing", subject: "A long one" })
      .returning();
    ticketId = ticket!.id;
    const start = Date.now() - replies * 60_000;
    await test.db.insert(supportMessages).values([
      ...Array.from({ length: replies }, (_, index) => ({
        ticketId,
        authorName: index % 2 ? "Support" : "Asker",
        side: index % 2 ? ("team" as const) : ("customer" as const),
        body: `message ${index + 1}`,
        createdAt: new Date(start + index * 60_000),
      })),
      {
        ticketId,
        authorName: "Support",
        side: "team" as const,
        internal: true,
        body: "internal note",
        createdAt: new Date(),
      },
    ]);
  });
  afterAll(async () => {
    await test?.close();
  });

  it("pages the newest first, oldest first within a page", async () => {
    const newest = await threadPage(test.db, ticketId, { withNotes: false, page: 1 });
    expect(newest).toMatchObject({ total: replies, page: 1, pages: 2 });
    expect(newest.messages).toHaveLength(THREAD_PAGE_SIZE);
    expect(newest.messages.at(0)?.body).toBe(`message ${replies - THREAD_PAGE_SIZE + 1}`);
    expect(newest.messages.at(-1)?.body).toBe(`message ${replies}`);
    const older = await threadPage(test.db, ticketId, { withNotes: false, page: 2 });
    expect(older.messages.map((message) => message.body)).toEqual(
      Array.from({ length: replies - THREAD_PAGE_SIZE }, (_, index) => `message ${index + 1}`),
    );
    // A page past the last is the last.
    expect((await threadPage(test.db, ticketId, { withNotes: false, page: 9 })).page).toBe(2);
  });

  it("shows the team's internal notes to the team only", async () => {
    const customer = await threadPage(test.db, ticketId, { withNotes: false, page: 1 });
    const team = await threadPage(test.db, ticketId, { withNotes: true, page: 1 });
    expect(customer.messages.map((message) => message.body)).not.toContain("internal note");
    expect(team.total).toBe(replies + 1);
    expect(team.messages.at(-1)?.body).toBe("internal note");
  });

  it("reads ?page= as a whole number from 1, else the newest page", () => {
    expect(threadPageOf("https://x.example/t?page=2")).toBe(2);
    for (const bad of ["0", "-1", "1.5", "abc", "9999999", ""])
      expect(threadPageOf(`https://x.example/t?page=${bad}`), bad).toBe(1);
  });
});
