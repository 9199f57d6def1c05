import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import { desktopDevices, desktopUsageEvents } from "../db/schema";
import {
  addDays,
  compareVersionsDesc,
  dayKey,
  startOfDay,
  totalsPerDay,
  totalsPerDeviceFeature,
  type UsageGroup,
  usageReport,
  usageWindow,
  versionsInUse,
} from "./usage.server";

function group(overrides: Partial<UsageGroup>): UsageGroup {
  return {
    deviceId: "device-1",
    deviceName: "Asha's MacBook",
    platform: "mac",
    feature: "serial_monitor",
    day: "2026-03-11",
    total: 1,
    lastUsedAt: new Date("2026-03-11T04:00:00Z"),
    ...overrides,
  };
}

describe("days in Asia/Kolkata", () => {
  it("puts an instant on the Indian calendar day, not the UTC one", () => {
    // 18:29 UTC is 23:59 IST; 18:30 UTC is the next day's midnight.
    expect(dayKey(new Date("2026-03-10T18:29:59Z"))).toBe("2026-03-10");
    expect(dayKey(new Date("2026-03-10T18:30:00Z"))).toBe("2026-03-11");
  });

  it("finds midnight of a day in the zone", () => {
    expect(startOfDay("2026-03-11").toISOString()).toBe("2026-03-10T18:30:00.000Z");
    expect(startOfDay("2026-03-11", "UTC").toISOString()).toBe("2026-03-11T00:00:00.000Z");
    // Across a DST change (Europe/London moved to BST on 29 March 2026).
    expect(startOfDay("2026-03-30", "Europe/London").toISOString()).toBe(
      "2026-03-29T23:00:00.000Z",
    );
  });

  it("moves day keys across month and year ends", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2025-12-31", 1)).toBe("2026-01-01");
    expect(() => addDays("11/03/2026", 1)).toThrow(/not a day key/);
  });

  it("spans thirty Indian days ending today", () => {
    const window = usageWindow(new Date("2026-03-10T20:00:00Z"));
    expect(window.days).toHaveLength(30);
    expect(window.days[0]).toBe("2026-02-10");
    expect(window.days.at(-1)).toBe("2026-03-11");
    expect(window.from.toISOString()).toBe("2026-02-09T18:30:00.000Z");
    expect(window.to.toISOString()).toBe("2026-03-11T18:30:00.000Z");
    expect(new Set(window.days).size).toBe(30);
  });
});

describe("usage totals", () => {
  const days = ["2026-03-09", "2026-03-10", "2026-03-11"];

  it("adds up every device and feature of a day and fills days without use with zero", () => {
    const totals = totalsPerDay(
      [
        group({ day: "2026-03-09", total: 2 }),
        group({ day: "2026-03-11", total: 3 }),
        group({ day: "2026-03-11", feature: "pin_map", total: 4 }),
        group({ day: "2026-03-11", deviceId: "device-2", total: 5 }),
        // Outside the window: not drawn.
        group({ day: "2026-03-12", total: 100 }),
      ],
      days,
    );
    expect(totals).toEqual([
      { day: "2026-03-09", total: 2 },
      { day: "2026-03-10", total: 0 },
      { day: "2026-03-11", total: 12 },
    ]);
  });

  it("merges the days of a device's feature and keeps the latest use", () => {
    const rows = totalsPerDeviceFeature([
      group({ day: "2026-03-09", total: 2, lastUsedAt: new Date("2026-03-09T05:00:00Z") }),
      group({ day: "2026-03-11", total: 3, lastUsedAt: new Date("2026-03-11T06:00:00Z") }),
      group({
        deviceId: "device-2",
        deviceName: "Office PC",
        platform: "windows",
        feature: "pin_map",
        total: 9,
      }),
      group({ feature: "flash", total: 5 }),
    ]);
    expect(rows).toEqual([
      {
        deviceId: "device-2",
        deviceName: "Office PC",
        platform: "windows",
        feature: "pin_map",
        total: 9,
        lastUsedAt: "2026-03-11T04:00:00.000Z",
      },
      {
        deviceId: "device-1",
        deviceName: "Asha's MacBook",
        platform: "mac",
        feature: "flash",
        total: 5,
        lastUsedAt: "2026-03-11T04:00:00.000Z",
      },
      {
        deviceId: "device-1",
        deviceName: "Asha's MacBook",
        platform: "mac",
        feature: "serial_monitor",
        total: 5,
        lastUsedAt: "2026-03-11T06:00:00.000Z",
      },
    ]);
  });
});

describe("versions in use", () => {
  it("orders versions numerically, newest first", () => {
    const sorted = ["2.9.1", "2.10.0-beta.2", "2.10.0", "2.10.0-beta.10", "1.0.0"].sort(
      compareVersionsDesc,
    );
    expect(sorted).toEqual(["2.10.0", "2.10.0-beta.10", "2.10.0-beta.2", "2.9.1", "1.0.0"]);
    expect(compareVersionsDesc("2.10", "2.10.0")).toBe(0);
  });

  it("joins signed-in devices and reported usage per version", () => {
    expect(
      versionsInUse(
        [
          { name: "MacBook", appVersion: "2.1.0" },
          { name: "PC", appVersion: "2.1.0" },
        ],
        [
          { appVersion: "2.0.0", total: 7 },
          { appVersion: "2.1.0", total: 3 },
        ],
      ),
    ).toEqual([
      { version: "2.1.0", devices: ["MacBook", "PC"], total: 3 },
      { version: "2.0.0", devices: [], total: 7 },
    ]);
  });
});

describe("usage report on the embedded database", () => {
  let database: TestDatabase;
  let userId: string;
  // 01:30 on 11 March 2026 in India, still 10 March in UTC.
  const now = new Date("2026-03-10T20:00:00Z");

  beforeAll(async () => {
    database = await openTestDatabase();
    userId = await insertUser(database.db, { email: "asha@example.com" });
    const otherId = await insertUser(database.db, { email: "ravi@example.com" });
    const device = async (owner: string, name: string, appVersion: string, revoked = false) => {
      const [row] = await database.db
        .insert(desktopDevices)
        .values({
          userId: owner,
          name,
          platform: name.includes("PC") ? "windows" : "mac",
          appVersion,
          accessTokenHash: randomUUID(),
          accessExpiresAt: new Date(now.getTime() + 3_600_000),
          revokedAt: revoked ? now : null,
        })
        .returning();
      return row!;
    };
    const mac = await device(userId, "Asha's MacBook", "2.1.0");
    const pc = await device(userId, "Asha's PC", "2.0.0", true);
    // Signed in but unused: its version still counts as in use.
    await device(userId, "Asha's Mac mini", "2.2.0");
    const other = await device(otherId, "Ravi's MacBook", "2.1.0");
    const event = (
      owner: { id: string; userId: string; appVersion: string },
      feature: string,
      count: number,
      at: string,
    ) => ({
      deviceId: owner.id,
      eventId: randomUUID(),
      userId: owner.userId,
      feature,
      count,
      occurredAt: new Date(at),
      appVersion: owner.appVersion,
    });
    await database.db.insert(desktopUsageEvents).values([
      // 23:59 IST on 10 March and 00:00 IST on 11 March: two different days.
      event(mac, "serial_monitor", 2, "2026-03-10T18:29:00Z"),
      event(mac, "serial_monitor", 3, "2026-03-10T18:30:00Z"),
      event(mac, "pin_map", 4, "2026-03-10T19:00:00Z"),
      event(pc, "pin_map", 5, "2026-02-10T00:00:00Z"),
      // Before the window (9 Feb IST) and after it (12 March IST): left out.
      event(mac, "pin_map", 100, "2026-02-09T18:29:00Z"),
      event(mac, "pin_map", 100, "2026-03-11T18:30:00Z"),
      // Someone else's usage.
      event(other, "pin_map", 50, "2026-03-10T19:00:00Z"),
    ]);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("totals the user's usage per Indian day, device and version", async () => {
    const report = await usageReport(userId, now, database.db);
    expect(report.timeZone).toBe("Asia/Kolkata");
    expect(report.days).toHaveLength(30);
    expect(report.total).toBe(14);
    const nonZero = report.days.filter((entry) => entry.total > 0);
    expect(nonZero).toEqual([
      { day: "2026-02-10", total: 5 },
      { day: "2026-03-10", total: 2 },
      { day: "2026-03-11", total: 7 },
    ]);
    expect(report.perDevice).toEqual([
      expect.objectContaining({
        deviceName: "Asha's MacBook",
        feature: "serial_monitor",
        total: 5,
        lastUsedAt: "2026-03-10T18:30:00.000Z",
      }),
      expect.objectContaining({ deviceName: "Asha's PC", feature: "pin_map", total: 5 }),
      expect.objectContaining({ deviceName: "Asha's MacBook", feature: "pin_map", total: 4 }),
    ]);
    expect(report.versions).toEqual([
      { version: "2.2.0", devices: ["Asha's Mac mini"], total: 0 },
      { version: "2.1.0", devices: ["Asha's MacBook"], total: 9 },
      { version: "2.0.0", devices: [], total: 5 },
    ]);
  });

  it("is empty for a user without usage", async () => {
    const nobody = await insertUser(database.db, { email: "new@example.com" });
    const report = await usageReport(nobody, now, database.db);
    expect(report.total).toBe(0);
    expect(report.perDevice).toEqual([]);
    expect(report.versions).toEqual([]);
    expect(report.days.every((entry) => entry.total === 0)).toBe(true);
  });
});
