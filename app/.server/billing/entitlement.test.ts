import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "~/lib/subscription-state";
import { decideEntitlement } from "./entitlement.server";

const now = new Date("2026-11-23T10:00:00Z");
const later = (days: number) => new Date(now.getTime() + days * 86_400_000);
const sub = (
  status: SubscriptionStatus,
  currentEnd: Date | null,
  planId = "pro-monthly",
  endReason: string | null = null,
) => ({ planId, status, currentEnd, chargeAt: currentEnd, endReason });

describe("decideEntitlement", () => {
  it("is Free with nothing", () => {
    expect(decideEntitlement({ subscriptions: [], grants: [] }, now)).toMatchObject({
      plan: "free",
      device_limit: 1,
      expires_at: null,
    });
  });

  // Issue 37: a team's seat gives its plan and names the team; the person's own plan is preferred
  // at the same end, and a seat on a team subscription that gives nothing gives nothing.
  it("gives a team seat's plan, naming the team, after the person's own", () => {
    const team = { id: "org_1", name: "Kaveri Robotics" };
    const seat = { ...sub("active", later(20)), team, seats: 3, seatRank: 1 };
    expect(decideEntitlement({ subscriptions: [], grants: [], seats: [seat] }, now)).toMatchObject({
      plan: "pro-monthly",
      expires_at: later(20).toISOString(),
      team,
    });
    const own = decideEntitlement(
      { subscriptions: [sub("active", later(20))], grants: [], seats: [seat] },
      now,
    );
    expect(own.plan).toBe("pro-monthly");
    expect(own.team).toBeUndefined();
    const lapsed = { ...sub("halted", later(-1)), team, seats: 3, seatRank: 1 };
    expect(
      decideEntitlement({ subscriptions: [], grants: [], seats: [lapsed] }, now),
    ).toMatchObject({ plan: "free" });
    expect(
      decideEntitlement({ subscriptions: [], grants: [], seats: [lapsed] }, now).team,
    ).toBeUndefined();
  });

  // Issue 53, finding 1: only the first `paid` seats of a team give Pro, oldest given first.
  it("finding 1: a team's seat gives Pro only while it is among the seats paid for now", () => {
    const team = { id: "org_2", name: "Tunga" };
    const seatAt = (
      seatRank: number,
      rows: { seats: number; status: SubscriptionStatus; end: Date }[],
    ) =>
      decideEntitlement(
        {
          subscriptions: [],
          grants: [],
          seats: rows.map((row) => ({
            ...sub(row.status, row.end),
            team,
            seats: row.seats,
            seatRank,
          })),
        },
        now,
      ).plan;
    const one = { seats: 1, status: "active" as const, end: later(20) };
    expect(seatAt(1, [one])).toBe("pro-monthly");
    expect(seatAt(2, [one])).toBe("free");
    // A change to 5 overlapping the 1 paid seat until the cycle ends: 5 paid now.
    const five = { seats: 5, status: "authenticated" as const, end: later(20) };
    expect(seatAt(5, [one, five])).toBe("pro-monthly");
    expect(seatAt(6, [one, five])).toBe("free");
    // Dropped, its upfront amount paid: still 5 until that cycle ends, then 1.
    const dropped = (until: Date) => ({
      ...sub("cancelled", null),
      team,
      seats: 5,
      seatRank: 4,
      upfrontPaidUntil: until,
    });
    const withDropped = (until: Date) =>
      decideEntitlement(
        {
          subscriptions: [],
          grants: [],
          seats: [{ ...sub("active", later(20)), team, seats: 1, seatRank: 4 }, dropped(until)],
        },
        now,
      ).plan;
    expect(withDropped(later(20))).toBe("pro-monthly");
    expect(withDropped(later(-1))).toBe("free");
    // A seat the readers gave no place is not counted as paid (fails closed).
    expect(
      decideEntitlement(
        { subscriptions: [], grants: [], seats: [{ ...sub("active", later(20)), team, seats: 9 }] },
        now,
      ).plan,
    ).toBe("free");
  });

  // A switch scheduled to start when the paid cycle ends: both end together and both renew; the
  // plan named is the one paid for, whichever order the sources were read in (one reader sorted
  // newest first, another did not, and /me named the switch's plan).
  it("names the plan paid for over a switch only authorised, in any read order", () => {
    const paid = { ...sub("active", later(20)), paidCount: 1 };
    const scheduled = { ...sub("authenticated", later(20), "pro-yearly"), paidCount: 0 };
    for (const subscriptions of [
      [paid, scheduled],
      [scheduled, paid],
    ])
      expect(decideEntitlement({ subscriptions, grants: [] }, now).plan).toBe("pro-monthly");
    // And the other way round, so the plans' names cannot be what decides.
    const paidYearly = { ...sub("active", later(20), "pro-yearly"), paidCount: 1 };
    const toMonthly = { ...sub("authenticated", later(20)), paidCount: 0 };
    for (const subscriptions of [
      [paidYearly, toMonthly],
      [toMonthly, paidYearly],
    ])
      expect(decideEntitlement({ subscriptions, grants: [] }, now).plan).toBe("pro-yearly");
  });

  // The class of the case above: whatever the sources, the order they were read in decides
  // nothing. Fails without the sort's last keys (two plans equal on everything else).
  it("decides the same for the sources in any order", () => {
    const status = fc.constantFrom(...SUBSCRIPTION_STATUSES);
    const plan = fc.constantFrom("pro-monthly", "pro-yearly");
    // Few distinct ends, so that sources tie on them often.
    const end = fc.constantFrom(null, later(-1), later(10), later(20));
    const own = fc.record({
      planId: plan,
      status,
      currentEnd: end,
      chargeAt: end,
      endReason: fc.constant(null),
      paidCount: fc.integer({ min: 0, max: 2 }),
      cancelAtCycleEnd: fc.boolean(),
    });
    const seat = fc.record({
      planId: plan,
      status,
      currentEnd: end,
      chargeAt: end,
      endReason: fc.constant(null),
      paidCount: fc.integer({ min: 0, max: 2 }),
      cancelAtCycleEnd: fc.boolean(),
      team: fc.constantFrom({ id: "org_a", name: "A" }, { id: "org_b", name: "B" }),
      seats: fc.integer({ min: 1, max: 3 }),
      seatRank: fc.integer({ min: 1, max: 3 }),
    });
    const grant = fc.record({
      planId: plan,
      startsAt: fc.constantFrom(later(-5), now),
      endsAt: fc.constantFrom(later(10), later(20)),
    });
    fc.assert(
      fc.property(
        fc.array(own, { maxLength: 4 }),
        fc.array(seat, { maxLength: 3 }),
        fc.array(grant, { maxLength: 2 }),
        (subscriptions, seats, grants) => {
          const forwards = decideEntitlement({ subscriptions, seats, grants }, now);
          const backwards = decideEntitlement(
            {
              subscriptions: [...subscriptions].reverse(),
              seats: [...seats].reverse(),
              grants: [...grants].reverse(),
            },
            now,
          );
          expect(backwards).toEqual(forwards);
        },
      ),
    );
  });

  it("gives nothing once the end it was set to end at has passed, before the webhook says so", () => {
    const ending = { ...sub("active", later(-1)), cancelAtCycleEnd: true };
    expect(decideEntitlement({ subscriptions: [ending], grants: [] }, now).plan).toBe("free");
    const renewing = { ...sub("active", later(-1)), cancelAtCycleEnd: false };
    expect(decideEntitlement({ subscriptions: [renewing], grants: [] }, now).plan).toBe(
      "pro-monthly",
    );
  });

  it("finding 12: an authorised plan that has charged nothing says until when it is paid", () => {
    const waiting = { ...sub("authenticated", later(5)), paidCount: 0 };
    expect(decideEntitlement({ subscriptions: [waiting], grants: [] }, now)).toMatchObject({
      renews: true,
      paid_until: later(5).toISOString(),
    });
    const charged = { ...sub("active", later(5)), paidCount: 1 };
    expect(
      decideEntitlement({ subscriptions: [charged], grants: [] }, now).paid_until,
    ).toBeUndefined();
  });

  it.each(["active", "authenticated", "pending"] as const)("is Pro while %s", (status) => {
    const result = decideEntitlement({ subscriptions: [sub(status, later(20))], grants: [] }, now);
    expect(result).toMatchObject({
      plan: "pro-monthly",
      device_limit: 3,
      expires_at: later(20).toISOString(),
    });
  });

  // What content/legal/refund.md promises after a failed renewal is this rule: Pro while Razorpay
  // retries (pending, even days after the period it paid for), Free once it halts.
  it("keeps the refund policy's promise for a failed renewal", () => {
    const policy = fs.readFileSync(
      path.resolve(import.meta.dirname, "../../../content/legal/refund.md"),
      "utf8",
    );
    expect(policy).toContain(
      "Your Pro features stay active for as long as Razorpay is retrying the payment.",
    );
    expect(policy).toContain(
      "If every retry fails, Razorpay stops the subscription and your account moves to the free plan.",
    );
    const retrying = { subscriptions: [sub("pending", later(-5))], grants: [] };
    expect(decideEntitlement(retrying, now).plan).toBe("pro-monthly");
    const halted = { subscriptions: [sub("halted", later(-5))], grants: [] };
    expect(decideEntitlement(halted, now).plan).toBe("free");
  });

  it.each(["halted", "created", "expired"] as const)("is Free while %s", (status) => {
    expect(
      decideEntitlement({ subscriptions: [sub(status, later(20))], grants: [] }, now).plan,
    ).toBe("free");
  });

  // Decision 0044: a pause stops charges, not the time already paid.
  it("keeps Pro while paused until the end of the period already paid, then Free", () => {
    const paused = { subscriptions: [sub("paused", later(10))], grants: [] };
    expect(decideEntitlement(paused, now)).toMatchObject({
      plan: "pro-monthly",
      expires_at: later(10).toISOString(),
    });
    expect(decideEntitlement(paused, later(10)).plan).toBe("free");
  });

  it("keeps Pro until the end of a cancelled period, then Free", () => {
    const cancelled = { subscriptions: [sub("cancelled", later(10))], grants: [] };
    expect(decideEntitlement(cancelled, now).plan).toBe("pro-monthly");
    expect(decideEntitlement(cancelled, later(9.99)).plan).toBe("pro-monthly");
    expect(decideEntitlement(cancelled, later(10)).plan).toBe("free");
    expect(decideEntitlement(cancelled, later(11)).plan).toBe("free");
  });

  it.each(["customer", "switched", "account-closed", null])(
    "keeps Pro until the end of a period that ended for the reason %s",
    (endReason) => {
      const ended = sub("cancelled", later(10), "pro-yearly", endReason);
      expect(decideEntitlement({ subscriptions: [ended], grants: [] }, now).plan).toBe(
        "pro-yearly",
      );
    },
  );

  // Issue 32: a refunded duplicate said pro-yearly for a year after its money went back.
  it.each(["duplicate", "refunded", "halted"])(
    "gives nothing for a subscription that ended as %s, in any status and period",
    (endReason) => {
      for (const status of [
        "active",
        "authenticated",
        "pending",
        "cancelled",
        "completed",
      ] as const) {
        const unpaid = sub(status, later(365), "pro-yearly", endReason);
        expect(decideEntitlement({ subscriptions: [unpaid], grants: [] }, now).plan).toBe("free");
        // Beside a paid monthly subscription, the monthly one decides, with its own end.
        const paid = sub("active", later(20));
        expect(decideEntitlement({ subscriptions: [unpaid, paid], grants: [] }, now)).toMatchObject(
          { plan: "pro-monthly", expires_at: later(20).toISOString() },
        );
      }
    },
  );

  it("honours a grant only between its start and end", () => {
    const grants = [{ planId: "pro-yearly", startsAt: later(1), endsAt: later(31) }];
    expect(decideEntitlement({ subscriptions: [], grants }, now).plan).toBe("free");
    expect(decideEntitlement({ subscriptions: [], grants }, later(2))).toMatchObject({
      plan: "pro-yearly",
      expires_at: later(31).toISOString(),
    });
    expect(decideEntitlement({ subscriptions: [], grants }, later(31)).plan).toBe("free");
  });

  it("a plan authorised to start when a trial ends goes on after it, though Razorpay's start is to the second", () => {
    // The trial's end has milliseconds; Razorpay's start_at (and so the first charge) does not.
    const trialEnd = new Date(later(5).getTime() + 789);
    const firstCharge = new Date(Math.floor(trialEnd.getTime() / 1000) * 1000);
    const result = decideEntitlement(
      {
        subscriptions: [
          {
            planId: "pro-monthly",
            status: "authenticated",
            currentEnd: null,
            chargeAt: firstCharge,
            endReason: null,
          },
        ],
        grants: [{ planId: "pro-monthly", startsAt: now, endsAt: trialEnd }],
      },
      now,
    );
    expect(result).toMatchObject({ plan: "pro-monthly", renews: true });
    // Without it, the trial ends there.
    expect(
      decideEntitlement(
        { subscriptions: [], grants: [{ planId: "pro-monthly", startsAt: now, endsAt: trialEnd }] },
        now,
      ),
    ).toMatchObject({ renews: false, expires_at: trialEnd.toISOString() });
  });

  it("never gives less than the best source alone", () => {
    const statuses = SUBSCRIPTION_STATUSES;
    const source = fc.record({
      planId: fc.constantFrom("pro-monthly", "pro-yearly", "free", "unknown"),
      status: fc.constantFrom(...statuses),
      currentEnd: fc.option(fc.integer({ min: -40, max: 400 }).map(later)),
      endReason: fc.option(fc.constantFrom("customer", "duplicate", "refunded", "halted")),
    });
    fc.assert(
      fc.property(fc.array(source, { maxLength: 5 }), (subscriptions) => {
        const all = decideEntitlement(
          { subscriptions: subscriptions.map((s) => ({ ...s, chargeAt: null })), grants: [] },
          now,
        );
        for (const one of subscriptions) {
          const alone = decideEntitlement(
            { subscriptions: [{ ...one, chargeAt: null }], grants: [] },
            now,
          );
          expect(all.device_limit).toBeGreaterThanOrEqual(alone.device_limit);
        }
      }),
    );
  });
});
