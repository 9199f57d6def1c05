import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { desktopDevices, session as sessions } from "../db/schema";
import { randomToken } from "../security/tokens";
import { revokeAllDevices, revokeDevice } from "./devices.server";

describe("signing desktop devices out", () => {
  let test: TestDatabase;
  let userId: string;
  let otherUserId: string;

  beforeAll(async () => {
    test = await openTestDatabase();
    userId = await insertUser(test.db, { email: "devices@example.com" });
    otherUserId = await insertUser(test.db, { email: "someone-else@example.com" });
  });
  afterAll(async () => {
    await test?.close();
  });

  async function addDevice(owner: string, name: string) {
    const [device] = await test.db
      .insert(desktopDevices)
      .values({
        userId: owner,
        name,
        platform: "mac",
        appVersion: "2.1.0",
        accessTokenHash: randomToken(),
        accessExpiresAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    return device!.id;
  }

  /** A browser session, opened from a device (app → web) or not. */
  async function addSession(owner: string, desktopDeviceId: string | null) {
    const id = randomToken();
    await test.db.insert(sessions).values({
      id,
      token: randomToken(),
      userId: owner,
      expiresAt: new Date(Date.now() + 86_400_000),
      createdAt: new Date(),
      updatedAt: new Date(),
      desktopDeviceId,
    });
    return id;
  }

  const isRevoked = async (deviceId: string) =>
    (await test.db.select().from(desktopDevices).where(eq(desktopDevices.id, deviceId)))[0]
      ?.revokedAt != null;
  const sessionExists = async (sessionId: string) =>
    (await test.db.select().from(sessions).where(eq(sessions.id, sessionId))).length === 1;

  it("signs out every device of the user but the one named, and the browsers they opened", async () => {
    const laptop = await addDevice(userId, "Laptop");
    const desk = await addDevice(userId, "Desk");
    const kept = await addDevice(userId, "Kept");
    const theirs = await addDevice(otherUserId, "Not yours");
    const fromLaptop = await addSession(userId, laptop);
    const fromKept = await addSession(userId, kept);
    const plain = await addSession(userId, null);

    expect(await revokeAllDevices(userId, kept, test.db)).toBe(2);
    expect(await isRevoked(laptop)).toBe(true);
    expect(await isRevoked(desk)).toBe(true);
    expect(await isRevoked(kept)).toBe(false);
    expect(await isRevoked(theirs)).toBe(false);
    expect(await sessionExists(fromLaptop)).toBe(false);
    expect(await sessionExists(fromKept)).toBe(true);
    // Browsers that signed in with a password are not the devices' to end.
    expect(await sessionExists(plain)).toBe(true);

    // Without an exception (a password reset) the last one goes too; twice changes nothing.
    expect(await revokeAllDevices(userId, null, test.db)).toBe(1);
    expect(await isRevoked(kept)).toBe(true);
    expect(await sessionExists(fromKept)).toBe(false);
    expect(await revokeAllDevices(userId, null, test.db)).toBe(0);
  });

  it("ends the browser sessions a single device opened when it is signed out", async () => {
    const device = await addDevice(userId, "Travel");
    const opened = await addSession(userId, device);
    expect(await revokeDevice(device, otherUserId, test.db)).toBe(false);
    expect(await sessionExists(opened)).toBe(true);
    expect(await revokeDevice(device, userId, test.db)).toBe(true);
    expect(await sessionExists(opened)).toBe(false);
  });
});
