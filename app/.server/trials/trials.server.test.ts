/**
 * Where a person stands with the free trial, beside its module: offered to someone new on Free
 * only. Issue 54: nobody holding Pro (a team's seat, a grant) is offered one, and the reason the
 * account page gives is the real one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { entitlementGrants, subscriptions, trials } from "../db/schema";
import { mailboxKey } from "../security/person-keys.server";
import { trialState } from "./trials.server";

vi.stubEnv("KEYS_ENCRYPTION_SECRET", "unit-test-keys-encryption-secret-0123456789");

describe("trialState", () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test?.close();
  });

  const person = async (email: string) => ({ id: await insertUser(test.db, { email }), email });
  const stateOf = (user: { id: string; email: string }) => trialState(user, { database: test.db });

  it("offers it to someone new on Free", async () => {
    expect(await stateOf(await person("new@example.com"))).toMatchObject({
      kind: "eligible",
      days: 14,
    });
  });

  it("refuses it to someone holding Pro from a grant, saying so", async () => {
    const user = await person("granted@example.com");
    await test.db.insert(entitlementGrants).values({
      userId: user.id,
      planId: "pro-monthly",
      startsAt: new Date(Date.now() - 86_400_000),
      endsAt: new Date(Date.now() + 30 * 86_400_000),
      reason: "goodwill",
    });
    expect(await stateOf(user)).toMatchObject({ kind: "refused", reason: "holds-pro" });
  });

  it("refuses it after any subscription, and to a mailbox that had one on another account", async () => {
    const subscribed = await person("subscribed@example.com");
    await test.db.insert(subscriptions).values({
      providerSubscriptionId: "sub_TrialsUnit0001",
      userId: subscribed.id,
      planId: "pro-monthly",
      providerPlanId: "plan_TrialsUnit01",
      status: "cancelled",
      syncedAt: new Date(),
    });
    expect(await stateOf(subscribed)).toMatchObject({
      kind: "refused",
      reason: "had-subscription",
    });

    const again = await person("again@example.com");
    await test.db.insert(trials).values({
      userId: null,
      mailboxKey: mailboxKey("again@example.com"),
      planId: "pro-monthly",
      source: "site",
      endsAt: new Date(Date.now() - 86_400_000),
    });
    expect(await stateOf(again)).toMatchObject({ kind: "refused", reason: "mailbox-had-trial" });
  });
});
