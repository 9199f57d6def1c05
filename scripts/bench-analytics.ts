/**
 * npm run bench:analytics — how fast /admin/analytics answers at scale (issue 24, point 6): seeds
 * 5 million analytics events over 13 months and 100,000 payments into a throwaway PostgreSQL
 * database (a cluster started from /usr/lib/postgresql/<v>/bin, or an empty database given by
 * BENCH_DATABASE_URL), then times each section of the page's loader, first with no day summed
 * (every day read from the raw events) and then after the hourly roll-up has summed the final
 * days, for the 7, 30 and 90 day periods. Prints a table and writes bench/results/analytics.md.
 * A measurement, never a test. BENCH_EVENTS and BENCH_PAYMENTS scale it down for a quick look.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { funnelFor } from "~/.server/analytics/funnel.server";
import { healthFor } from "~/.server/analytics/health.server";
import { lastDays } from "~/.server/analytics/period";
import { revenueMonths } from "~/.server/analytics/revenue.server";
import { rollUpFinalDays } from "~/.server/analytics/rollup.server";
import { trafficFor } from "~/.server/analytics/traffic.server";
import { type Database, migrate, openDatabase } from "~/.server/db/client";
import { istMonth } from "~/lib/india-time";
import { findPostgresBin, startCluster } from "../tests/support/postgres";
import { claimScratchUntilExit } from "./lib/scratch";

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
/** Customers each pay about five times (monthly renewals), so 20,000 for 100,000 payments. */
const CUSTOMERS = Math.max(1, Math.round(PAYMENTS / 5));
/** Each visitor: 12 events within 12 minutes of one day (a session), so funnels fill up. */
const VISITORS = Math.max(1, Math.round(EVENTS / 12));
const DAYS = 396;
const RUNS = 3;

async function exec(database: Database, statement: ReturnType<typeof sql>) {
  await database.execute(statement);
}

async function seed(database: Database) {
  const started = performance.now();
  // Users, then one subscription each (a tenth yearly), then monthly payments back in time.
  await exec(
    database,
    sql`insert into "user" (id, name, email, email_verified, created_at, updated_at, role)
        select 'bench-' || g, 'Customer ' || g, 'customer' || g || '@example.com', true,
               now() - interval '400 days', now(), 'user'
          from generate_series(1, ${CUSTOMERS}) g`,
  );
  await exec(
    database,
    sql`insert into subscriptions (provider_subscription_id, user_id, plan_id, provider_plan_id,
                                   status, synced_at, analytics_client_id)
        select 'sub_bench' || g, 'bench-' || g,
               case when g % 10 = 0 then 'pro-yearly' else 'pro-monthly' end, 'plan_bench',
               case when g % 7 = 0 then 'cancelled' else 'active' end, now(),
               case when g % 3 = 0 then null
                    else md5('visitor' || (g * 7 % ${VISITORS}))::uuid::text end
          from generate_series(1, ${CUSTOMERS}) g`,
  );
  await exec(
    database,
    sql`insert into payments (provider_payment_id, subscription_id, user_id, amount_paise,
                              currency, status, method, paid_at)
        select 'pay_bench' || g, s.id, s.user_id,
               case when s.plan_id = 'pro-yearly' then 699900 else 69900 end, 'INR',
               case when g % 50 = 0 then 'failed' when g % 97 = 0 then 'refunded' else 'captured' end,
               'card',
               now() - make_interval(days => ((g / ${CUSTOMERS}) * 30 + (g % 29))::int)
          from generate_series(1, ${PAYMENTS}) g
          join subscriptions s on s.provider_subscription_id = 'sub_bench' || (1 + g % ${CUSTOMERS})`,
  );
  console.log(`  ${CUSTOMERS} customers, ${PAYMENTS} payments`);
  // Events in chunks of a million: a realistic mix of names, visitors from a pool, 13 months.
  const chunk = 1_000_000;
  for (let from = 1; from <= EVENTS; from += chunk) {
    const to = Math.min(EVENTS, from + chunk - 1);
    await exec(
      database,
      sql`insert into analytics_events (name, params, client_id, occurred_at)
          select kind.name, kind.params,
                 md5('visitor' || (g / 12))::uuid::text,
                 now() - make_interval(secs => (abs(hashint4(g / 12)) % (${DAYS} * 86400))::int)
                       + make_interval(mins => g % 12)
            from generate_series(${from}::int, ${to}::int) g
            cross join lateral (select abs(hashint4(-g)) % 100 as h) pick
            cross join lateral (
              select case
                when pick.h < 55 then 'page_view'
                when pick.h < 63 then 'view_pricing'
                when pick.h < 67 then 'plan_select'
                when pick.h < 69 then 'begin_checkout'
                when pick.h < 79 then 'cta_click'
                when pick.h < 85 then 'search'
                when pick.h < 86 then 'exception'
                when pick.h < 96 then 'navigation'
                when pick.h < 98 then 'form_submit'
                else 'feature_use' end as name,
              case
                when pick.h < 55 then jsonb_build_object('page_title', 'Page',
                  'page_location', '/p' || (g % 40), 'page_path', '/p' || (g % 40))
                when pick.h < 63 then jsonb_build_object('billing_cycle', 'monthly')
                when pick.h < 67 then jsonb_build_object('plan_name', 'Pro (monthly)',
                  'plan_price', 699, 'billing_cycle', 'monthly')
                when pick.h < 69 then jsonb_build_object('currency', 'INR', 'value', 699,
                  'plan_name', 'Pro (monthly)')
                when pick.h < 79 then jsonb_build_object('cta_name', 'cta' || (g % 12),
                  'cta_location', 'hero')
                when pick.h < 85 then jsonb_build_object('search_term', 'term' || (g % 500),
                  'results_count', g % 4)
                when pick.h < 86 then jsonb_build_object('error_type', 'TypeError',
                  'description', 'x', 'location', '/p' || (g % 7), 'fatal', false)
                when pick.h < 96 then jsonb_build_object('from_page', '/', 'to_page', '/pricing',
                  'method', 'link')
                when pick.h < 98 then jsonb_build_object('form_name', 'sign_up', 'success', true)
                else jsonb_build_object('feature_name', 'feature' || (g % 9)) end as params
            ) kind`,
    );
    console.log(`  ${to.toLocaleString("en-IN")} events`);
  }
  await exec(database, sql`analyze`);
  return (performance.now() - started) / 1000;
}

type Section = { name: string; run: () => Promise<unknown> };

function sections(database: Database, days: number): Section[] {
  const period = lastDays(days, new Date());
  return [
    { name: "funnel", run: () => funnelFor(period, database) },
    {
      name: "revenue (12 months)",
      run: () => revenueMonths(istMonth(new Date()), new Date(), database),
    },
    { name: "acquisition", run: () => trafficFor(period, database) },
    { name: "health", run: () => healthFor(period, database) },
    {
      name: "whole page (in parallel)",
      run: () =>
        Promise.all([
          funnelFor(period, database),
          revenueMonths(istMonth(new Date()), new Date(), database),
          trafficFor(period, database),
          healthFor(period, database),
        ]),
    },
  ];
}

/** The median of RUNS timings after one warm-up, in ms. */
async function time(run: () => Promise<unknown>): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

async function measure(database: Database, label: string) {
  const rows: { state: string; days: number; section: string; ms: number }[] = [];
  for (const days of [7, 30, 90])
    for (const section of sections(database, days)) {
      const ms = await time(section.run);
      rows.push({ state: label, days, section: section.name, ms });
      console.log(`  ${label} · ${days} days · ${section.name}: ${ms.toFixed(0)} ms`);
    }
  return rows;
}

async function main() {
  // BENCH_KEEP leaves the cluster running, so its folder must outlive the bench.
  if (!process.env.BENCH_KEEP) claimScratchUntilExit("bench-analytics");
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  let url = process.env.BENCH_DATABASE_URL;
  if (!url) {
    const bin = findPostgresBin();
    if (!bin)
      throw new Error("No PostgreSQL binaries in /usr/lib/postgresql; set BENCH_DATABASE_URL.");
    cluster = await startCluster(bin);
    url = cluster.url;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-bench-analytics-"));
  const handle = await openDatabase({ dataDir, databaseUrl: url });
  try {
    await migrate(handle);
    const database = handle.db;
    console.log(`seeding ${EVENTS.toLocaleString("en-IN")} events…`);
    const seconds = await seed(database);
    console.log(`seeded in ${seconds.toFixed(0)} s`);
    const raw = await measure(database, "raw events only");
    const rollStarted = performance.now();
    const rolled = await rollUpFinalDays(new Date(), database);
    const rollSeconds = (performance.now() - rollStarted) / 1000;
    console.log(`summed ${rolled.length} days in ${rollSeconds.toFixed(0)} s`);
    const summed = await measure(database, "days summed");
    const table = [...raw, ...summed]
      .map((row) => `| ${row.state} | ${row.days} | ${row.section} | ${row.ms.toFixed(0)} |`)
      .join("\n");
    const report = `# bench:analytics

\`npm run bench:analytics\` on ${new Date().toISOString().slice(0, 10)}: PostgreSQL ${
      cluster ? "15, a throwaway cluster" : "(BENCH_DATABASE_URL)"
    } on this 2-core machine, ${EVENTS.toLocaleString("en-IN")} analytics events over ${DAYS} days
(${VISITORS.toLocaleString("en-IN")} visitors), ${PAYMENTS.toLocaleString("en-IN")} payments of ${CUSTOMERS.toLocaleString("en-IN")} customers.
Seeded in ${seconds.toFixed(0)} s; the first roll-up summed ${rolled.length} days in ${rollSeconds.toFixed(0)} s
(after that, one day per run). Each time is the median of ${RUNS} runs after a warm-up: the
loader's server time per section of /admin/analytics, without rendering.

| state | period (days) | section | ms |
|---|---|---|---|
${table}
`;
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync("bench/results/analytics.md", report);
    console.log("\nwrote bench/results/analytics.md");
  } finally {
    await handle.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP) console.log(`kept: ${url}`);
    else cluster?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
