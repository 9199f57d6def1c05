/**
 * Issue 34, point 6: the data export cannot forget a table. Every table of the schema is listed in
 * EXPORT_COVERAGE, with the export key its rows go under or the reason none of them are the
 * person's; a table added to the schema fails here until someone decides. And what two of the
 * newer sources put in it: the mails sent, and the analytics a purchase tied to the account.
 */
import { getTableName, is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { insertUser, openTestDatabase } from "../../../tests/support/test-database";
import * as schema from "../db/schema";
import { recordMailAttempt } from "../mail/mail-log.server";
import { eraseUserData } from "./erase.server";
import { EXPORT_COVERAGE, EXPORT_KEYS, exportUserData } from "./export.server";

const tables: PgTable[] = Object.values(schema as Record<string, unknown>).filter(
  (value): value is PgTable => is(value, PgTable),
);

describe("the data export's coverage of the schema", () => {
  it("lists every table of the schema, and only those", () => {
    const names = tables.map((table) => getTableName(table)).sort();
    expect(names.length).toBeGreaterThan(30);
    expect(Object.keys(EXPORT_COVERAGE).sort()).toEqual(names);
  });

  it("exports every table that points at the user, except secrets that expire", () => {
    const pointsAtUser = tables.filter((table) =>
      getTableConfig(table).foreignKeys.some(
        (key) => getTableName(key.reference().foreignTable) === "user",
      ),
    );
    const notExported = pointsAtUser
      .map((table) => getTableName(table))
      .filter((name) => !("exportedAs" in EXPORT_COVERAGE[name]!));
    // Only the desktop handoff's hashed, minutes-long secrets; its reason says so.
    expect(notExported).toEqual(["one_time_tokens"]);
    for (const name of notExported) {
      const coverage = EXPORT_COVERAGE[name]!;
      expect("notExported" in coverage && /secret/.test(coverage.notExported)).toBe(true);
    }
  });

  it("names only keys the export has, and every data key comes from a table", () => {
    const used = new Set(
      Object.values(EXPORT_COVERAGE).flatMap((coverage) =>
        "exportedAs" in coverage ? [coverage.exportedAs] : [],
      ),
    );
    for (const key of used) expect(EXPORT_KEYS).toContain(key);
    // exportedAt is the moment; analyticsConsent lives in the browser's cookie, not a table.
    expect(EXPORT_KEYS.filter((key) => !used.has(key))).toEqual(["exportedAt", "analyticsConsent"]);
  });
});

describe("the data export's contents", () => {
  it("holds the mails sent and the site analytics of the browser the person bought in, until the account is erased", async () => {
    const test = await openTestDatabase();
    try {
      const userId = await insertUser(test.db, { email: "export-contents@example.com" });
      const at = new Date("2026-11-20T05:00:00Z");
      const [sub] = await test.db
        .insert(schema.subscriptions)
        .values({
          providerSubscriptionId: "sub_ExportContents",
          userId,
          planId: "pro-monthly",
          providerPlanId: "plan_monthly",
          status: "active",
          syncedAt: at,
          analyticsClientId: "their-browser",
          cancelReason: "It costs too much: money is tight",
        })
        .returning();
      // Why they opened "Cancel subscription", in their own words (issue 59).
      await test.db.insert(schema.cancelFlowVisits).values({
        subscriptionId: sub!.id,
        planId: "pro-monthly",
        reason: "too-expensive",
        reasonText: "money is tight",
        outcome: "cancelled",
        decidedAt: at,
      });
      await test.db.insert(schema.analyticsEvents).values([
        { name: "view_pricing", params: {}, clientId: "their-browser", occurredAt: at },
        { name: "view_pricing", params: {}, clientId: "another-browser", occurredAt: at },
      ]);
      await recordMailAttempt(
        { key: "k1", to: "export-contents@example.com", subject: "Welcome" },
        test.db,
      );
      const data = await exportUserData(userId, { database: test.db });
      expect(data?.siteAnalytics).toEqual([{ name: "view_pricing", params: {}, at }]);
      expect(data?.mailsSent).toMatchObject([{ subject: "Welcome", status: "sent", tries: 1 }]);
      expect(data?.cancellationAnswers).toMatchObject([
        { reason: "It costs too much", yourWords: "money is tight", outcome: "cancelled" },
      ]);

      // Deleting the account forgets both: the payment record stays (tax law), its tie to the
      // browser does not, and the mail log of the address goes.
      await eraseUserData(userId, "export-contents@example.com", test.db);
      const after = await exportUserData(userId, { database: test.db });
      expect(after?.siteAnalytics).toEqual([]);
      expect(after?.mailsSent).toEqual([]);
      // The fixed reason stays for the counts; the customer's own words do not.
      expect(after?.cancellationAnswers).toMatchObject([
        { reason: "It costs too much", yourWords: null },
      ]);
      expect(after?.subscriptions).toMatchObject([{ cancelReason: null }]);
    } finally {
      await test.close();
    }
  });
});
