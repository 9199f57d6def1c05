/**
 * Issue 53, "also close": the referrer's reward and the customer's own refund share the 7-day
 * boundary of one payment. Each instance used to decide that boundary by its own clock, and the
 * reward read the payment without the lock the refund's request takes, so an instance whose clock
 * ran ahead could reward a payment the customer then refunded inside the window, and a reward
 * could miss a refund requested at the same moment. The instances' clocks are the `now` each
 * function is given; the database's clock is the real one.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";
import { engines } from "../../../tests/support/engines";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { queueRefund, REFUND_JOB, refundableLeft } from "../billing/refunds.server";
import { requestSelfRefund } from "../billing/self-refund.server";
import { entitlementGrants, jobs, payments, referrals, subscriptions } from "../db/schema";
import { settleReferral } from "./reward.server";

vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");

const MINUTE = 60_000;
const WINDOW_MS = REFUND_WINDOW_DAYS * 86_400_000;

describe.each(engines())("the referral reward and the self-refund on $name", (engine) => {
  let test: TestDatabase;
  let sequence = 0;

  beforeAll(async () => {
    test = await openTestDatabase({ engine });
  });
  afterAll(async () => {
    await test?.close();
  });

  /** A referred customer's first payment, made `ago` ms before now (the database's clock). */
  async function referredPayment(ago: number) {
    sequence += 1;
    const referrerUserId = await insertUser(test.db, { email: `referrer-${sequence}@example.com` });
    const email = `referred-${sequence}@example.com`;
    const userId = await insertUser(test.db, { email });
    const [clock] = await test.db
      .select({ ms: sql<number>`(extract(epoch from now()) * 1000)::float8` })
      .from(sql`(select 1) as one`);
    const paidAt = new Date(Number(clock!.ms) - ago);
    const [subscription] = await test.db
      .insert(subscriptions)
      .values({
        providerSubscriptionId: `sub_reward${String(sequence).padStart(6, "0")}`,
        userId,
        planId: "pro-monthly",
        providerPlanId: "plan_reward000001",
        status: "active",
        paidCount: 1,
        currentStart: paidAt,
        currentEnd: new Date(paidAt.getTime() + 30 * 86_400_000),
        syncedAt: new Date(),
      })
      .returning();
    const paymentId = `pay_reward${String(sequence).padStart(6, "0")}`;
    await test.db.insert(payments).values({
      providerPaymentId: paymentId,
      subscriptionId: subscription!.id,
      userId,
      amountPaise: 69_900,
      currency: "INR",
      status: "captured",
      method: "card",
      cardNetwork: "Visa",
      cardLast4: "4366",
      paidAt,
    });
    const [referral] = await test.db
      .insert(referrals)
      .values({
        referrerUserId,
        referredUserId: userId,
        firstPaymentId: paymentId,
        firstPaidAt: paidAt,
      })
      .returning({ id: referrals.id });
    return { referralId: referral!.id, referrerUserId, user: { id: userId, email }, paymentId };
  }

  const rewardsOf = async (referrerUserId: string) =>
    (
      await test.db
        .select({ id: entitlementGrants.id })
        .from(entitlementGrants)
        .where(eq(entitlementGrants.userId, referrerUserId))
    ).length;
  const refundRequestsOf = async (paymentId: string) =>
    (
      await test.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(sql`${jobs.kind} = ${REFUND_JOB} and ${jobs.payload}->>'paymentId' = ${paymentId}`)
    ).length;
  /** Days pass: the payment and its referral move back, as the clocks would move on. */
  const windowPasses = async (paymentId: string) => {
    await test.db.execute(
      sql`update payments set paid_at = paid_at - interval '1 day' where provider_payment_id = ${paymentId}`,
    );
    await test.db.execute(
      sql`update referrals set first_paid_at = first_paid_at - interval '1 day' where first_payment_id = ${paymentId}`,
    );
  };

  it("also: the referral reward and the self-refund never both succeed for one payment", async () => {
    // A minute before the window ends. The reward's instance runs two minutes ahead; the
    // customer's (right) asks for the refund.
    const early = await referredPayment(WINDOW_MS - MINUTE);
    const ahead = new Date(Date.now() + 2 * MINUTE);
    const reward = await settleReferral(early.referralId, { database: test.db, now: ahead });
    const refund = await requestSelfRefund(
      early.user,
      { paymentId: early.paymentId, key: `rf_reward-test-${sequence}` },
      { database: test.db },
    );
    expect(refund.queued).toBe(true);
    expect(reward).not.toBe("rewarded");
    expect(await rewardsOf(early.referrerUserId)).toBe(0);
    // After the window, by any clock: voided, for the refund asked for inside it.
    await windowPasses(early.paymentId);
    expect(await settleReferral(early.referralId, { database: test.db, now: ahead })).toBe(
      "voided",
    );
    expect(await rewardsOf(early.referrerUserId)).toBe(0);
    expect(await refundRequestsOf(early.paymentId)).toBe(1);

    // At the same moment: a refund of the payment is being requested (the payment's row locked,
    // the request not yet committed) as the reward job runs. The reward waits for it, and finds it.
    const late = await referredPayment(WINDOW_MS + MINUTE);
    let settling: Promise<string> | undefined;
    await test.db.transaction(async (tx) => {
      expect(await refundableLeft(tx, late.paymentId)).toBe(69_900);
      await queueRefund(tx, {
        paymentId: late.paymentId,
        amountPaise: 69_900,
        reason: "asked for as the window closed",
        key: `rf_reward-race-${sequence}`,
        actor: { id: late.user.id, email: late.user.email },
        targetUserId: late.user.id,
      });
      settling = settleReferral(late.referralId, { database: test.db });
      // On PostgreSQL, until the reward is waiting for the payment's lock (had it not waited, it
      // would have read the refunds by then). PGlite has one connection: the reward's queries
      // run after this transaction whatever happens.
      if (engine.name === "postgres")
        await vi.waitFor(
          async () => {
            // A transaction keeps its first reading of pg_stat_activity unless told to drop it.
            await tx.execute(sql`select pg_stat_clear_snapshot()`);
            // Both drivers answer `{ rows }`.
            const waiting = (await tx.execute(
              sql`select count(*)::int as n from pg_stat_activity
                  where datname = current_database() and wait_event_type = 'Lock'`,
            )) as { rows: { n: number }[] };
            expect(Number(waiting.rows[0]?.n)).toBeGreaterThan(0);
          },
          { timeout: 10_000, interval: 20 },
        );
    });
    expect(await settling).toBe("voided");
    expect(await rewardsOf(late.referrerUserId)).toBe(0);
  });

  // The self-refund decides the window by the database's clock under the payment's lock too
  // (requestSelfRefund, refundWindowOpen): an instance whose clock runs behind cannot refund.
  it("also: the referral reward and the self-refund never both succeed for one payment, when the refund's instance clock is behind", async () => {
    // A minute after the window ended: rewarded (rightly); the customer's instance runs two
    // minutes behind and still offers the refund.
    const paid = await referredPayment(WINDOW_MS + MINUTE);
    expect(await settleReferral(paid.referralId, { database: test.db })).toBe("rewarded");
    const behind = new Date(Date.now() - 2 * MINUTE);
    await expect(
      requestSelfRefund(
        paid.user,
        { paymentId: paid.paymentId, key: `rf_reward-behind-${sequence}` },
        { database: test.db, now: behind },
      ),
    ).rejects.toThrow(/can no longer be refunded/);
    expect(await refundRequestsOf(paid.paymentId)).toBe(0);
  });
});
