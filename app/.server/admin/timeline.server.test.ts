import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { analyticsEvents } from "../db/schema";
import {
  type TimelineSources,
  filterTimeline,
  timelineEntries,
  timelineExtras,
} from "./timeline.server";

const none: TimelineSources = {
  account: { createdAt: "2026-11-01T04:00:00.000Z", devices: [] },
  subscriptions: [],
  payments: [],
  refunds: [],
  invoices: [],
  grants: [],
  events: [],
  audit: [],
  tickets: [],
  mails: [],
  analytics: [],
};

describe("the customer timeline (issue 33, point 5)", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test?.close();
  });

  it("reads key site events in words, marks problems, and sorts newest first", () => {
    const entries = timelineEntries({
      ...none,
      mails: [
        {
          key: "m1",
          subject: "Your invoice",
          status: "failed",
          attempts: 3,
          lastError: "greeting never received",
          firstAttemptAt: new Date("2026-11-03T04:00:00Z"),
          lastAttemptAt: new Date("2026-11-03T05:00:00Z"),
        },
      ],
      analytics: [
        {
          name: "exception",
          params: {
            error_type: "TypeError",
            description: "x is undefined",
            location: "/checkout",
            fatal: false,
          },
          occurredAt: new Date("2026-11-02T04:00:00Z"),
        },
        {
          name: "app_download",
          params: { platform: "mac", file_extension: "dmg" },
          occurredAt: new Date("2026-11-04T04:00:00Z"),
        },
        {
          name: "form_submit",
          params: { form_name: "billing-details", success: false },
          occurredAt: new Date("2026-11-01T05:00:00Z"),
        },
      ],
    });
    expect(entries.map((entry) => [entry.kind, entry.title, entry.problem])).toEqual([
      ["analytics", "Downloaded the app for Mac", false],
      ["mail", "Mail not sent yet: Your invoice", true],
      ["analytics", "Site error: TypeError", true],
      ["analytics", "Form refused: billing-details", true],
      ["account", "Signed up", false],
    ]);
    expect(entries[1]?.detail).toBe("3 tries; greeting never received");
    expect(entries[2]?.detail).toBe("x is undefined at /checkout");
    // Filtered to one kind.
    expect(filterTimeline(entries, ["mail"])).toMatchObject({
      total: 1,
      entries: [{ kind: "mail" }],
    });
  });

  it("tells a free trial from an operator's grant, with India dates", () => {
    const entries = timelineEntries({
      ...none,
      grants: [
        {
          planId: "pro-monthly",
          reason: "trial",
          createdAt: new Date("2026-11-05T04:00:00Z"),
          // 20:00 UTC on the 18th is the 19th in India.
          endsAt: new Date("2026-11-18T20:00:00Z"),
        },
        {
          planId: "pro-yearly",
          reason: "Goodwill after the outage",
          createdAt: new Date("2026-11-06T04:00:00Z"),
          endsAt: new Date("2026-12-06T04:00:00Z"),
        },
      ],
    });
    expect(entries.map(({ kind, title, detail }) => ({ kind, title, detail }))).toEqual([
      {
        kind: "audit",
        title: "Given Pro (yearly) until 6 Dec 2026",
        detail: "Goodwill after the outage",
      },
      {
        kind: "billing",
        title: "Started a free Pro trial, until 19 Nov 2026",
        detail: "No card; Free again afterwards unless they buy",
      },
      expect.objectContaining({ kind: "account" }),
    ]);
  });

  it("takes only the key events of the browsers the customer bought in", async () => {
    const at = new Date("2026-11-05T04:00:00Z");
    await test.db.insert(analyticsEvents).values([
      {
        name: "begin_checkout",
        params: { plan_name: "Pro (monthly)" },
        clientId: "their-browser",
        occurredAt: at,
      },
      {
        name: "page_view",
        params: { page_path: "/pricing" },
        clientId: "their-browser",
        occurredAt: at,
      },
      {
        name: "begin_checkout",
        params: { plan_name: "Pro (yearly)" },
        clientId: "someone-else",
        occurredAt: at,
      },
    ]);
    const extras = await timelineExtras(test.db, {
      paymentIds: [],
      analyticsClientIds: ["their-browser"],
    });
    expect(extras.analytics.map((event) => [event.name, event.params])).toEqual([
      ["begin_checkout", { plan_name: "Pro (monthly)" }],
    ]);
    expect(await timelineExtras(test.db, { paymentIds: [], analyticsClientIds: [] })).toEqual({
      refunds: [],
      analytics: [],
    });
  });
});
