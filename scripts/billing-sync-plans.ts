/**
 * npm run billing:sync-plans
 *
 * Creates the Razorpay plans for the paid plans of app/config/site.ts, in rupees and in each
 * currency sold abroad (SELL_ABROAD_CURRENCIES, under a Letter of Undertaking), once per plan,
 * currency and price (the mapping is kept in the database, so running it again changes nothing),
 * and fetches each to prove the keys work. An account without international payments fails here,
 * naming the plan and currency. Run it after setting live keys, before the first sale. With the embedded
 * database, stop the server first (the database lock); in sandbox mode the server must be
 * running (the sandbox lives in it), so use a PostgreSQL DATABASE_URL or just buy: plans are also
 * created on first use.
 * Exit codes: 0 done, 1 failure.
 */
import { syncPlans } from "~/.server/billing/plans.server";
import { paymentsConfig } from "~/.server/billing/provider.server";
import { closeDatabase, initDatabase } from "~/.server/db";

async function main(): Promise<number> {
  await initDatabase();
  try {
    const { apiUrl, testMode } = paymentsConfig();
    console.log(`Razorpay at ${apiUrl} (${testMode ? "test" : "live"} keys)`);
    for (const result of await syncPlans())
      console.log(
        `${result.planId} in ${result.currency}: ${result.providerPlanId}${result.created ? " (created)" : " (exists)"}`,
      );
    return 0;
  } finally {
    await closeDatabase();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
