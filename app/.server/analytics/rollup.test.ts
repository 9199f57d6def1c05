/**
 * Issue 24, points 6 and 7: the daily sums read the same as the raw events they replace, a day is
 * summed only once it is final, and the prune keeps what the retention period and the roll-up
 * have not released.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addIstDays, istDay, istDayStart } from "~/lib/india-time";
import { engines } from "../../../tests/support/engines";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { analyticsEvents, analyticsRolledDays } from "../db/schema";
import { lastDays, parsePeriod, periodOfDays, unrolledRuns } from "./period";
import {
  dailyRows,
  METRICS,
  newestFinalDay,
  pruneRawEvents,
  retentionCutoff,
  rollUpFinalDays,
} from "./rollup.server";
import { funnelFor } from "./funnel.server";
import { trafficFor } from "./traffic.server";

const NOW = new Date("2026-11-20T06:30:00Z"); // 12:00 in India

describe("periods", () => {
  it("reads presets and from–to as whole India days", () => {
    const week = parsePeriod(new URLSearchParams("days=7"), NOW).period;
    expect([week.fromDay, week.toDay, week.days.length]).toEqual(["2026-11-14", "2026-11-20", 7]);
    expect(week.from).toEqual(new Date("2026-11-13T18:30:00Z"));
    expect(week.to).toEqual(new Date("2026-11-20T18:30:00Z"));
    const custom = parsePeriod(new URLSearchParams("from=2026-10-30&to=2026-11-02"), NOW);
    expect(custom.problem).toBeNull();
    expect(custom.period.days).toEqual(["2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"]);
  });

  it("falls back to 30 days with a message for what it cannot read", () => {
    for (const [query, problem] of [
      ["days=8", /Choose 7, 30, 90 days/],
      ["from=2026-11-01", /both/],
      ["from=2026-02-30&to=2026-03-01", /YYYY-MM-DD/],
      ["from=2026-11-10&to=2026-11-01", /not be after/],
      ["from=2027-01-01&to=2027-01-02", /future/],
      ["from=2024-01-01&to=2026-11-01", /at most 400/],
    ] as const) {
      const parsed = parsePeriod(new URLSearchParams(query), NOW);
      expect(parsed.problem, query).toMatch(problem);
      expect(parsed.period).toEqual(lastDays(30, NOW));
    }
    expect(parsePeriod(new URLSearchParams(""), NOW)).toEqual({
      period: lastDays(30, NOW),
      problem: null,
    });
  });

  it("finds the runs of days not summed yet", () => {
    const days = ["01", "02", "03", "04", "05"].map((day) => `2026-11-${day}`);
    expect(unrolledRuns(days, new Set(["2026-11-02", "2026-11-03"]))).toEqual([
      ["2026-11-01"],
      ["2026-11-04", "2026-11-05"],
    ]);
  });

  it("keeps 13 months by default, to the same India day or the month's last", () => {
    expect(retentionCutoff(NOW, 13)).toEqual(istDayStart("2025-10-20"));
    expect(retentionCutoff(new Date("2026-03-31T06:30:00Z"), 1)).toEqual(istDayStart("2026-02-28"));
    expect(newestFinalDay(NOW)).toBe("2026-11-18");
  });
});

describe.each(engines())("daily sums on $name", (engine) => {
  let test: TestDatabase;
  const visitors = Array.from({ length: 4 }, () => randomUUID());
  /** An event at noon (India) `daysAgo` days before NOW. */
  const at = (daysAgo: number, minutes = 0) =>
    new Date(
      istDayStart(addIstDays(istDay(NOW), -daysAgo))!.getTime() + (12 * 60 + minutes) * 60_000,
    );

  beforeAll(async () => {
    test = await openTestDatabase({ engine });
    const rows = [];
    for (const daysAgo of [0, 1, 2, 3, 5, 400, 401]) {
      for (const [index, clientId] of visitors.entries()) {
        rows.push({
          name: "page_view",
          clientId,
          occurredAt: at(daysAgo, index),
          params: { page_title: "Pricing", page_location: "/pricing", page_path: "/pricing" },
        });
        if (index < 2)
          rows.push({
            name: "search",
            clientId,
            occurredAt: at(daysAgo, index),
            params: { search_term: index === 0 ? " UART " : "nothing here", results_count: index },
          });
      }
      rows.push({
        name: "exception",
        clientId: visitors[0]!,
        occurredAt: at(daysAgo, 30),
        params: { error_type: "TypeError", description: "x", location: "/pricing", fatal: false },
      });
      rows.push({
        name: "cta_click",
        clientId: null,
        occurredAt: at(daysAgo, 40),
        params: { cta_name: "download", cta_location: "hero" },
      });
      // The desktop app's uses: 12 and 3 in two reports, and one stored before counts were kept.
      rows.push(
        {
          name: "feature_use",
          clientId: "desktop:1",
          occurredAt: at(daysAgo, 50),
          params: { feature_name: "serial_monitor", count: 12 },
        },
        {
          name: "feature_use",
          clientId: "desktop:1",
          occurredAt: at(daysAgo, 51),
          params: { feature_name: "flasher", count: 3 },
        },
        {
          name: "feature_use",
          clientId: "desktop:1",
          occurredAt: at(daysAgo, 52),
          params: { feature_name: "flasher" },
        },
      );
      // Just before midnight in India is still that day (18:29 UTC).
      rows.push({
        name: "page_view",
        clientId: visitors[0]!,
        occurredAt: new Date(istDayStart(addIstDays(istDay(at(daysAgo)), 1))!.getTime() - 60_000),
        params: { page_title: "Home", page_location: "/", page_path: "/" },
      });
    }
    await test.db.insert(analyticsEvents).values(rows);
  });
  afterAll(async () => {
    await test?.close();
  });

  const period = () => periodOfDays(addIstDays(istDay(NOW), -6), istDay(NOW), 7);

  it("sums final days only, and reads the same before and after", async () => {
    const before = await trafficFor(period(), test.db);
    expect(before.days.map((day) => [day.visitors, day.pageViews])).toEqual([
      [0, 0],
      [4, 5],
      [0, 0],
      [4, 5],
      [4, 5],
      [4, 5],
      [4, 5],
    ]);
    expect(before.topPages).toEqual([
      { path: "/pricing", views: 20 },
      { path: "/", views: 5 },
    ]);
    expect(before.topSearches).toEqual([
      { term: "nothing here", searches: 5, empty: 0 },
      { term: "uart", searches: 5, empty: 5 },
    ]);
    expect(before.emptySearches).toEqual([{ term: "uart", searches: 5 }]);
    expect(before.ctas).toEqual([{ name: "download", location: "hero", clicks: 5 }]);

    // Feature uses are summed from the counts the app reported, not counted as reports.
    const uses = async () =>
      (await dailyRows([addIstDays(istDay(NOW), -3)], ["feature"], test.db))
        .map((row) => [row.dim, row.events])
        .sort();
    expect(await uses()).toEqual([
      ["flasher", 4],
      ["serial_monitor", 12],
    ]);

    const rolled = await rollUpFinalDays(NOW, test.db);
    // From the oldest event (401 days ago) to the day before yesterday; today and yesterday wait.
    expect(rolled[0]).toBe(addIstDays(istDay(NOW), -401));
    expect(rolled.at(-1)).toBe(newestFinalDay(NOW));
    expect(rolled).toHaveLength(400);
    expect(await rollUpFinalDays(NOW, test.db)).toEqual([]);

    expect(await trafficFor(period(), test.db)).toEqual(before);
    expect(await uses()).toEqual([
      ["flasher", 4],
      ["serial_monitor", 12],
    ]);
    const rows = await dailyRows(period().days, METRICS, test.db);
    const exception = rows.filter((row) => row.metric === "exception");
    expect(exception.map((row) => [row.dim, row.dim2, row.events])).toEqual(
      expect.arrayContaining([["TypeError", "/pricing", 1]]),
    );
  });

  it("prunes raw events past retention only from days already summed", async () => {
    // 13 months back from NOW is ~396 days: the events 400 and 401 days ago are past it.
    // Forget that the oldest day was summed: its events, and every later one, must stay.
    await test.db
      .delete(analyticsRolledDays)
      .where(eq(analyticsRolledDays.day, addIstDays(istDay(NOW), -401)));
    expect(await pruneRawEvents(NOW, 13, test.db)).toBe(0);
    await rollUpFinalDays(NOW, test.db);
    const perDay = 4 + 2 + 1 + 1 + 3 + 1;
    expect(await pruneRawEvents(NOW, 13, test.db)).toBe(2 * perDay);
    const left = await test.db.select().from(analyticsEvents);
    expect(left).toHaveLength(5 * perDay);
    // The pruned days still read from their sums.
    const old = periodOfDays(addIstDays(istDay(NOW), -401), addIstDays(istDay(NOW), -400), null);
    const traffic = await trafficFor(old, test.db);
    expect(traffic.days.map((day) => day.pageViews)).toEqual([5, 5]);
  });
});

describe.each(engines())("the funnel before and after its days are summed on $name", (engine) => {
  let test: TestDatabase;
  const at = (daysAgo: number) =>
    new Date(istDayStart(addIstDays(istDay(NOW), -daysAgo))!.getTime() + 10 * 3_600_000);

  beforeAll(async () => {
    test = await openTestDatabase({ engine });
    const event = (clientId: string, daysAgo: number, name: string, params: object) => ({
      clientId,
      name,
      params,
      occurredAt: at(daysAgo),
    });
    const [a, b, c, d] = Array.from({ length: 4 }, () => randomUUID());
    await test.db.insert(analyticsEvents).values([
      // a: pricing five days ago, plan and checkout four days ago (days that will be summed).
      event(a!, 5, "view_pricing", {}),
      event(a!, 4, "plan_select", {
        plan_name: "Pro (yearly)",
        plan_price: 6999,
        billing_cycle: "yearly",
      }),
      event(a!, 4, "begin_checkout", { currency: "INR", value: 6999, plan_name: "Pro (yearly)" }),
      // b: pricing four days ago (summed), plan today (not summed), sign-up yesterday.
      event(b!, 4, "view_pricing", {}),
      event(b!, 0, "plan_select", {
        plan_name: "Pro (monthly)",
        plan_price: 699,
        billing_cycle: "monthly",
      }),
      event(b!, 1, "form_submit", { form_name: "sign_up", success: true }),
      // c: only a plan (never viewed pricing); d: pricing only, and a feedback form.
      event(c!, 3, "plan_select", {
        plan_name: "Pro (monthly)",
        plan_price: 699,
        billing_cycle: "monthly",
      }),
      event(d!, 3, "view_pricing", {}),
      event(d!, 3, "form_submit", { form_name: "feedback", success: true }),
    ]);
  });
  afterAll(async () => {
    await test?.close();
  });

  it("counts the same visitors whether their days are summed or not", async () => {
    const period = periodOfDays(addIstDays(istDay(NOW), -6), istDay(NOW), 7);
    const before = await funnelFor(period, test.db);
    expect(before.steps.map((step) => step.visitors)).toEqual([3, 2, 1, 0]);
    expect(before.byCycle).toEqual([
      { cycle: "monthly", chose: 1, began: 0, paid: 0 },
      { cycle: "yearly", chose: 1, began: 1, paid: 0 },
    ]);
    expect(before.signedUp).toBe(1);
    await rollUpFinalDays(NOW, test.db);
    expect(await funnelFor(period, test.db)).toEqual(before);
  });
});
