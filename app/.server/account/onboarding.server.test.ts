import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { desktopDevices, desktopUsageEvents, oneTimeTokens } from "../db/schema";
import { randomToken } from "../security/tokens";
import { readAccountState } from "./account-state.server";
import { claimOnboardingEvents, findOnboardingProgress } from "./onboarding.server";

const SIGN_UP = new Date("2026-03-01T10:00:00.000Z");
const minutes = (count: number) => new Date(SIGN_UP.getTime() + count * 60_000);

describe("the first-run checklist", () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(async () => {
    await test?.close();
  });

  const doneSteps = async (userId: string, now: Date) =>
    (await findOnboardingProgress(userId, test.db, now)).steps
      .filter((step) => step.done)
      .map((step) => step.name);

  async function addDevice(userId: string, createdAt: Date, lastSeenAt: Date) {
    const [device] = await test.db
      .insert(desktopDevices)
      .values({
        userId,
        name: "Bench PC",
        platform: "windows",
        appVersion: "2.1.0",
        accessTokenHash: randomToken(),
        accessExpiresAt: new Date(lastSeenAt.getTime() + 3_600_000),
        createdAt,
        lastSeenAt,
      })
      .returning();
    return device!.id;
  }

  it("counts the app asking to sign in as downloaded, and nothing else yet", async () => {
    const userId = await insertUser(test.db, { email: "handoff@example.com", createdAt: SIGN_UP });
    expect(await doneSteps(userId, minutes(5))).toEqual([]);
    await test.db.insert(oneTimeTokens).values({
      tokenHash: randomToken(),
      purpose: "desktop_handoff",
      userId,
      expiresAt: minutes(10),
      createdAt: minutes(5),
    });
    expect(await doneSteps(userId, minutes(6))).toEqual(["download_app"]);
  });

  it("times completion from sign-up to the last step, not to the device's latest visit", async () => {
    const userId = await insertUser(test.db, { email: "complete@example.com", createdAt: SIGN_UP });
    // Signed in at +10 min; not seen again since: signed in, not yet "seen".
    const deviceId = await addDevice(userId, minutes(10), minutes(10));
    expect(await doneSteps(userId, minutes(11))).toEqual(["download_app", "sign_in_from_app"]);
    // A usage report at +25 min (the app's clock); the device has been seen daily since.
    await test.db.insert(desktopUsageEvents).values({
      deviceId,
      eventId: "e-1",
      userId,
      feature: "pin_map",
      count: 1,
      occurredAt: minutes(25),
      appVersion: "2.1.0",
    });
    const progress = await findOnboardingProgress(userId, test.db, minutes(3 * 24 * 60));
    expect(progress.complete).toBe(true);
    expect(progress.steps.every((step) => step.done)).toBe(true);
    expect(progress.timeSpent).toBe(25 * 60);
  });

  it("never dates a step before sign-up or after now, whatever the app's clock says", async () => {
    const userId = await insertUser(test.db, { email: "clock@example.com", createdAt: SIGN_UP });
    const deviceId = await addDevice(userId, minutes(1), minutes(2));
    await test.db.insert(desktopUsageEvents).values({
      deviceId,
      eventId: "e-future",
      userId,
      feature: "flasher",
      count: 1,
      occurredAt: minutes(10_000),
      appVersion: "2.1.0",
    });
    const progress = await findOnboardingProgress(userId, test.db, minutes(30));
    expect(progress.timeSpent).toBe(30 * 60);
  });

  it("hands each checklist event to one claim only, ever: at once, and on every later visit", async () => {
    const userId = await insertUser(test.db, { email: "claims@example.com", createdAt: SIGN_UP });
    const deviceId = await addDevice(userId, minutes(10), minutes(10));
    // Two tabs ask at once: the two steps done go to one of them, nothing to the other.
    const [first, second] = await Promise.all([
      claimOnboardingEvents(userId, test.db, minutes(11)),
      claimOnboardingEvents(userId, test.db, minutes(11)),
    ]);
    expect([...first.steps, ...second.steps].sort()).toEqual(["download_app", "sign_in_from_app"]);
    expect([first.completeTimeSpent, second.completeTimeSpent]).toEqual([null, null]);

    await test.db.insert(desktopUsageEvents).values({
      deviceId,
      eventId: "e-claims",
      userId,
      feature: "pin_map",
      count: 1,
      occurredAt: minutes(25),
      appVersion: "2.1.0",
    });
    // The rest, and the completion, once; three more visits get nothing.
    expect(await claimOnboardingEvents(userId, test.db, minutes(30))).toEqual({
      steps: ["device_seen", "first_usage_report"],
      completeTimeSpent: 25 * 60,
    });
    for (let visit = 0; visit < 3; visit += 1)
      expect(await claimOnboardingEvents(userId, test.db, minutes(40 + visit))).toEqual({
        steps: [],
        completeTimeSpent: null,
      });
    expect(
      (await readAccountState(userId, { database: test.db })).overview.reportedSteps.sort(),
    ).toEqual([
      "complete",
      "device_seen",
      "download_app",
      "first_usage_report",
      "sign_in_from_app",
    ]);
  });
});
