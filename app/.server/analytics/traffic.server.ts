import { and, between, eq, sql } from "drizzle-orm";
import { type Database, db as defaultDb } from "../db";
import { releaseDailyCounts } from "../db/schema";
import type { Period } from "./period";
import { type DailyRow, dailyRows } from "./rollup.server";

/** Acquisition and content over a period: who came, what they read, searched and clicked. */
export interface Traffic {
  days: { day: string; visitors: number; pageViews: number }[];
  topPages: { path: string; views: number }[];
  topSearches: { term: string; searches: number; empty: number }[];
  emptySearches: { term: string; searches: number }[];
  ctas: { name: string; location: string; clicks: number }[];
  downloads: { platform: string; version: string; downloads: number }[];
  downloadsTotal: number;
}

export const TOP = 10;

/** Adds up rows by a key; the biggest first, ties by key so the order is stable. */
export function totalsBy<K extends string>(
  rows: readonly DailyRow[],
  key: (row: DailyRow) => K,
): { key: K; events: number }[] {
  const totals = new Map<K, number>();
  for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + row.events);
  return [...totals]
    .map(([name, events]) => ({ key: name, events }))
    .sort((a, b) => b.events - a.events || (a.key < b.key ? -1 : 1));
}

export async function trafficFor(
  period: Period,
  database: Database = defaultDb(),
): Promise<Traffic> {
  const [rows, downloadRows] = await Promise.all([
    dailyRows(period.days, ["all", "event", "page", "search", "cta"], database),
    database
      .select({
        platform: releaseDailyCounts.platform,
        version: releaseDailyCounts.version,
        downloads: sql<number>`sum(${releaseDailyCounts.count})::int`,
      })
      .from(releaseDailyCounts)
      .where(
        and(
          eq(releaseDailyCounts.event, "download"),
          between(releaseDailyCounts.day, period.fromDay, period.toDay),
        ),
      )
      .groupBy(releaseDailyCounts.platform, releaseDailyCounts.version),
  ]);
  const of = (metric: DailyRow["metric"]) => rows.filter((row) => row.metric === metric);
  const visitors = new Map(of("all").map((row) => [row.day, row.visitors]));
  const views = new Map(
    of("event")
      .filter((row) => row.dim === "page_view")
      .map((row) => [row.day, row.events]),
  );
  const searches = of("search");
  const empty = new Map(
    totalsBy(
      searches.filter((row) => row.dim2 === "empty"),
      (row) => row.dim,
    ).map((row) => [row.key, row.events]),
  );
  const downloads = downloadRows
    .map((row) => ({ ...row, downloads: Number(row.downloads) }))
    .sort((a, b) => b.downloads - a.downloads || a.platform.localeCompare(b.platform));
  return {
    days: period.days.map((day) => ({
      day,
      visitors: visitors.get(day) ?? 0,
      pageViews: views.get(day) ?? 0,
    })),
    topPages: totalsBy(of("page"), (row) => row.dim)
      .slice(0, TOP)
      .map((row) => ({ path: row.key, views: row.events })),
    topSearches: totalsBy(searches, (row) => row.dim)
      .slice(0, TOP)
      .map((row) => ({ term: row.key, searches: row.events, empty: empty.get(row.key) ?? 0 })),
    emptySearches: [...empty]
      .map(([term, count]) => ({ term, searches: count }))
      .sort((a, b) => b.searches - a.searches || (a.term < b.term ? -1 : 1))
      .slice(0, TOP),
    ctas: totalsBy(of("cta"), (row) => `${row.dim}\u0000${row.dim2}`)
      .slice(0, TOP)
      .map((row) => {
        const [name = "", location = ""] = row.key.split("\u0000");
        return { name, location, clicks: row.events };
      }),
    downloads,
    downloadsTotal: downloads.reduce((total, row) => total + row.downloads, 0),
  };
}
