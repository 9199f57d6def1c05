import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  analyticsEvents,
  desktopDevices,
  feedback,
  releaseAssets,
  subscriptions,
  releases,
  user as users,
} from "../db/schema";
import {
  listSubscriptions,
  parseSubscriptionQuery,
  SUBSCRIPTIONS_PER_PAGE,
} from "./billing-reads.server";
import { findCustomer, signOutCustomerDevice } from "./customers.server";
import {
  dashboardStats,
  downloadsPerPlatform,
  newestFeedback,
  setFeedbackStatus,
} from "./dashboard.server";
import { planDistribution, planShares } from "./plans.server";
import {
  insertUser,
  openTestDatabase,
  type TestDatabase,
} from "../../../tests/support/test-database";
import {
  changeUserRole,
  escapeLike,
  parseUserQuery,
  roleChangeRefusal,
  searchUsers,
  setRoleByEmail,
  USERS_PER_PAGE,
} from "./users.server";

describe("paging and search input", () => {
  it("reads ?q= and ?page=, falling back on anything malformed", () => {
    expect(parseUserQuery(new URLSearchParams("q=%20asha%20&page=3"))).toEqual({
      q: "asha",
      page: 3,
    });
    expect(parseUserQuery(new URLSearchParams("page=-2"))).toEqual({ q: "", page: 1 });
    expect(parseUserQuery(new URLSearchParams("page=abc"))).toEqual({ q: "", page: 1 });
    expect(parseUserQuery(new URLSearchParams(`q=${"x".repeat(300)}`))).toEqual({
      q: "",
      page: 1,
    });
  });

  it("escapes LIKE wildcards so a search matches the text itself", () => {
    expect(escapeLike("50%_off\\")).toBe("50\\%\\_off\\\\");
  });

  it("refuses only an admin removing their own role", () => {
    expect(roleChangeRefusal("a", "a", "user")).toMatch(/cannot remove your own admin role/);
    expect(roleChangeRefusal("a", "a", "admin")).toBeNull();
    expect(roleChangeRefusal("a", "b", "user")).toBeNull();
  });

  it("adds up the architectures of a platform", () => {
    expect(
      downloadsPerPlatform([
        { platform: "windows", downloadCount: 3 },
        { platform: "mac", downloadCount: 2 },
        { platform: "mac", downloadCount: 5 },
      ]),
    ).toEqual([
      { platform: "mac", downloads: 7 },
      { platform: "windows", downloads: 3 },
    ]);
  });

  it("lists every configured plan, and any unknown one after them", () => {
    expect(planShares(new Map([["free", 4]]))).toEqual([
      { plan: "free", label: "Free", users: 4 },
      { plan: "pro-monthly", label: "Pro (monthly)", users: 0 },
      { plan: "pro-yearly", label: "Pro (yearly)", users: 0 },
    ]);
    expect(planShares(new Map([["legacy", 1]])).at(-1)).toEqual({
      plan: "legacy",
      label: "legacy",
      users: 1,
    });
  });
});

describe("admin queries on the embedded database", () => {
  let database: TestDatabase;
  let adminId: string;
  let ashaId: string;

  async function addDevice(userId: string, name: string, revoked = false) {
    const [device] = await database.db
      .insert(desktopDevices)
      .values({
        userId,
        name,
        platform: "mac",
        appVersion: "2.1.0",
        accessTokenHash: randomUUID(),
        accessExpiresAt: new Date(Date.now() + 3_600_000),
        revokedAt: revoked ? new Date() : null,
      })
      .returning();
    if (!device) throw new Error("device not inserted");
    return device.id;
  }

  beforeAll(async () => {
    // Read once by env() on first use: set before any query asks for it.
    vi.stubEnv("ADMIN_EMAILS", "boss@example.com");
    database = await openTestDatabase();
    const base = Date.UTC(2026, 0, 1);
    adminId = await insertUser(database.db, {
      email: "root@example.com",
      name: "Root Admin",
      role: "admin",
      createdAt: new Date(base),
    });
    await insertUser(database.db, {
      email: "boss@example.com",
      name: "The Boss",
      createdAt: new Date(base + 1000),
    });
    // Listed in ADMIN_EMAILS but not verified: not an admin.
    await insertUser(database.db, {
      email: "BOSS2@example.com",
      emailVerified: false,
      createdAt: new Date(base + 2000),
    });
    ashaId = await insertUser(database.db, {
      email: "asha@example.com",
      name: "Asha Rao",
      createdAt: new Date(base + 3000),
    });
    for (let index = 0; index < 26; index += 1) {
      await insertUser(database.db, {
        email: `tester${String(index).padStart(2, "0")}@example.com`,
        name: `Tester ${index}`,
        emailVerified: index % 2 === 0,
        createdAt: new Date(base + 10_000 + index * 1000),
      });
    }
    await addDevice(ashaId, "Asha's MacBook");
    await addDevice(ashaId, "Old laptop", true);
  });
  afterAll(async () => {
    await database?.close();
    vi.unstubAllEnvs();
  });

  it("pages users newest first, 25 at a time", async () => {
    const first = await searchUsers({ q: "", page: 1 }, database.db);
    expect(first).toMatchObject({ total: 30, page: 1, pageCount: 2, perPage: USERS_PER_PAGE });
    expect(first.users).toHaveLength(25);
    expect(first.users[0]?.email).toBe("tester25@example.com");
    const second = await searchUsers({ q: "", page: 5 }, database.db);
    expect(second.page).toBe(2);
    expect(second.users.map((row) => row.email)).toEqual([
      "tester00@example.com",
      "asha@example.com",
      "BOSS2@example.com",
      "boss@example.com",
      "root@example.com",
    ]);
  });

  it("pages subscriptions newest first, keeping the filters, 50 at a time", async () => {
    const at = (index: number) => new Date(Date.UTC(2026, 10, 1) + index * 1000);
    await database.db.insert(subscriptions).values(
      Array.from({ length: SUBSCRIPTIONS_PER_PAGE + 3 }, (_, index) => ({
        providerSubscriptionId: `sub_page${String(index).padStart(3, "0")}`,
        // Of deleted accounts, so no one's plan (counted by other tests here) changes.
        userId: null,
        planId: "pro-monthly",
        providerPlanId: "plan_monthly",
        status: index % 2 === 0 ? ("cancelled" as const) : ("expired" as const),
        syncedAt: at(index),
        createdAt: at(index),
      })),
    );
    const first = await listSubscriptions(
      parseSubscriptionQuery(new URLSearchParams("")),
      database.db,
    );
    expect(first).toMatchObject({ total: SUBSCRIPTIONS_PER_PAGE + 3, page: 1, pageCount: 2 });
    expect(first.rows).toHaveLength(SUBSCRIPTIONS_PER_PAGE);
    expect(first.rows[0]?.providerSubscriptionId).toBe("sub_page052");
    const second = await listSubscriptions(
      parseSubscriptionQuery(new URLSearchParams("page=2")),
      database.db,
    );
    expect(second.rows.map((row) => row.providerSubscriptionId)).toEqual([
      "sub_page002",
      "sub_page001",
      "sub_page000",
    ]);
    // A filter counts only what it matches: 27 cancelled, one page.
    const cancelled = await listSubscriptions(
      parseSubscriptionQuery(new URLSearchParams("status=cancelled&page=2")),
      database.db,
    );
    expect(cancelled).toMatchObject({ total: 27, page: 1, pageCount: 1 });
  });

  it("searches email and name without case, with wildcards taken literally", async () => {
    const byName = await searchUsers({ q: "asha RAO", page: 1 }, database.db);
    expect(byName.users.map((row) => row.email)).toEqual(["asha@example.com"]);
    expect(byName.users[0]).toMatchObject({ activeDevices: 1, role: "user", adminByEmail: false });
    const byEmail = await searchUsers({ q: "BOSS", page: 1 }, database.db);
    expect(byEmail.total).toBe(2);
    expect(byEmail.users.find((row) => row.email === "boss@example.com")).toMatchObject({
      role: "admin",
      adminByEmail: true,
    });
    expect(byEmail.users.find((row) => row.email === "BOSS2@example.com")?.role).toBe("user");
    expect((await searchUsers({ q: "%", page: 1 }, database.db)).total).toBe(0);
    expect((await searchUsers({ q: "tester_", page: 1 }, database.db)).total).toBe(0);
  });

  it("changes roles, refusing self-demotion and unknown users", async () => {
    expect(
      await changeUserRole({ actorId: adminId, targetId: adminId, role: "user" }, database.db),
    ).toMatchObject({ ok: false, status: 400 });
    expect(
      await changeUserRole({ actorId: adminId, targetId: "nobody", role: "admin" }, database.db),
    ).toMatchObject({ ok: false, status: 404 });
    const promoted = await changeUserRole(
      { actorId: adminId, targetId: ashaId, role: "admin" },
      database.db,
    );
    expect(promoted).toMatchObject({ ok: true, user: { id: ashaId, role: "admin" } });
    const [stored] = await database.db
      .select({ role: users.role })
      .from(users)
      .where(eq(users.id, ashaId));
    expect(stored?.role).toBe("admin");

    const demoted = await setRoleByEmail("  ASHA@example.com ", "user", database.db);
    expect(demoted).toMatchObject({ ok: true, user: { email: "asha@example.com", role: "user" } });
    expect(await setRoleByEmail("ghost@example.com", "admin", database.db)).toBeNull();
    const listed = await setRoleByEmail("boss@example.com", "user", database.db);
    expect(listed?.user.role).toBe("admin");
    expect(listed?.message).toMatch(/stays an admin while ADMIN_EMAILS lists/);
  });

  it("counts users, admins, devices, feedback, downloads and recent events", async () => {
    const now = new Date();
    const [fb1, fb2] = await database.db
      .insert(feedback)
      .values([
        {
          email: "a@example.com",
          category: "bug",
          message: "Serial monitor drops bytes.",
          rating: 2,
          createdAt: new Date(now.getTime() - 60_000),
        },
        {
          email: "b@example.com",
          category: "feature",
          message: "Please add I2C decoding.",
          createdAt: now,
        },
      ])
      .returning({ id: feedback.id });
    const [release] = await database.db
      .insert(releases)
      .values({ version: "2.1.0" })
      .returning({ id: releases.id });
    await database.db.insert(releaseAssets).values([
      {
        releaseId: release!.id,
        platform: "mac",
        fileName: "Pinout-2.1.0.dmg",
        sizeBytes: 1,
        sha256: "a".repeat(64),
        storageKey: "2.1.0/Pinout-2.1.0.dmg",
        downloadCount: 12,
      },
      {
        releaseId: release!.id,
        platform: "windows",
        fileName: "Pinout-Setup-2.1.0.exe",
        sizeBytes: 1,
        sha256: "b".repeat(64),
        storageKey: "2.1.0/Pinout-Setup-2.1.0.exe",
        downloadCount: 4,
      },
    ]);
    const event = (name: string, daysAgo: number) => ({
      name,
      params: {},
      occurredAt: new Date(now.getTime() - daysAgo * 86_400_000),
    });
    await database.db
      .insert(analyticsEvents)
      .values([
        event("page_view", 0),
        event("page_view", 1),
        event("page_view", 6),
        event("app_download", 2),
        event("search", 8),
      ]);

    const stats = await dashboardStats(now, database.db);
    expect(stats.users).toEqual({ total: 30, verified: 16, admins: 2 });
    expect(stats.activeDevices).toBe(1);
    expect(stats.newFeedback).toBe(2);
    expect(stats.latestRelease).toEqual({
      version: "2.1.0",
      platforms: [
        { platform: "mac", downloads: 12 },
        { platform: "windows", downloads: 4 },
      ],
    });
    expect(stats.topEvents).toEqual([
      { name: "page_view", count: 3 },
      { name: "app_download", count: 1 },
    ]);

    const newest = await newestFeedback(10, database.db);
    expect(newest.map((item) => item.id)).toEqual([fb2!.id, fb1!.id]);
    expect(newest[1]).toMatchObject({ email: "a@example.com", rating: 2, status: "new" });
    expect(await setFeedbackStatus(fb1!.id, "read", database.db)).toBe(true);
    expect(await setFeedbackStatus(randomUUID(), "closed", database.db)).toBe(false);
    expect((await dashboardStats(now, database.db)).newFeedback).toBe(1);
  });

  it("counts users per plan through entitlementFor, in batches", async () => {
    const shares = await planDistribution(database.db, 7);
    expect(shares).toEqual([
      { plan: "free", label: "Free", users: 30 },
      { plan: "pro-monthly", label: "Pro (monthly)", users: 0 },
      { plan: "pro-yearly", label: "Pro (yearly)", users: 0 },
    ]);
  });

  it("looks a customer up by email or id and signs out only their own devices", async () => {
    expect(await findCustomer({ email: "nobody@example.com" }, database.db)).toBeNull();
    const customer = await findCustomer({ email: "Asha@Example.com" }, database.db);
    expect(customer).toMatchObject({
      email: "asha@example.com",
      entitlement: { plan: "free", device_limit: 1 },
    });
    expect(customer?.devices.map((device) => device.name)).toEqual(["Asha's MacBook"]);
    // The same customer by id (/admin/customers/:id); an unknown id finds nobody.
    expect((await findCustomer({ id: ashaId }, database.db))?.email).toBe("asha@example.com");
    expect(await findCustomer({ id: "no-such-user" }, database.db)).toBeNull();
    const deviceId = customer!.devices[0]!.id;
    expect(await signOutCustomerDevice(adminId, deviceId, database.db)).toBe(false);
    expect(await signOutCustomerDevice(ashaId, deviceId, database.db)).toBe(true);
    expect(await signOutCustomerDevice(ashaId, deviceId, database.db)).toBe(false);
    expect((await findCustomer({ email: "asha@example.com" }, database.db))?.devices).toEqual([]);
  });
});
