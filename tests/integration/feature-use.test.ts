import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "~/.server/db/schema";
import { getWithCookies, signUpVerified } from "../support/auth";
import { signInDevice } from "../support/desktop";
import { engines } from "../support/engines";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";
import { readDatabase } from "../support/test-database";

/**
 * Issue 24, point 5: the desktop app's usage reports become `feature_use` analytics events on the
 * server, one per newly stored usage event, and the account overview's first-run checklist follows
 * the same reports.
 */
describe.each(engines())("feature_use from the desktop app's usage reports on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  let cookie: string;
  let access: string;
  let deviceId: string;
  let userId: string;

  const usage = (events: unknown[]) =>
    fetch(`${server.url}/api/desktop/usage`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${access}` },
      body: JSON.stringify({ events }),
    });
  /** The overview's checklist as text: each step's title with its state, or null when hidden. */
  const checklist = async () => {
    const html = await (await getWithCookies(server, "/account", cookie)).text();
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    if (!text.includes("Get started with Pinout")) return null;
    return [
      ...text.matchAll(
        /(Download the app|Sign in from the app|First device seen|First usage report) (Done|To do)/g,
      ),
    ].map((match) => `${match[1]}: ${match[2]}`);
  };

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
    cookie = await signUpVerified(server, {
      name: "Usage Ravi",
      email: "ravi@example.com",
      password: "feature-use-password-1",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows the checklist from the account's own records as the app signs in", async () => {
    expect(await checklist()).toEqual([
      "Download the app: To do",
      "Sign in from the app: To do",
      "First device seen: To do",
      "First usage report: To do",
    ]);
    // The desktop handoff, as the app does it: a token for the signed-in browser, then PKCE.
    access = await signInDevice(server, cookie, "Ravi's MacBook");
    const me = (await (
      await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: `Bearer ${access}` },
      })
    ).json()) as { user: { id: string }; device: { id: string } };
    deviceId = me.device.id;
    userId = me.user.id;
    expect(await checklist()).toEqual([
      "Download the app: Done",
      "Sign in from the app: Done",
      "First device seen: To do",
      "First usage report: To do",
    ]);
  });

  it("stores one feature_use per new usage event; a resent report adds none", async () => {
    const at = "2026-03-02T10:15:00.000Z";
    const report = [
      { id: "evt-1", feature: "serial_monitor", count: 3, at },
      { id: "evt-2", feature: "pin_map", count: 1, at },
    ];
    expect(await (await usage(report)).json()).toEqual({ received: 2, stored: 2 });
    expect(await (await usage(report)).json()).toEqual({ received: 2, stored: 0 });
    // One seen before, one new: only the new one counts.
    const mixed = [report[1], { id: "evt-3", feature: "flasher", count: 2, at }];
    expect(await (await usage(mixed)).json()).toEqual({ received: 2, stored: 1 });
    // The report is also the device's first visit since signing in: the checklist is done.
    expect(await checklist()).toBeNull();

    await server.stop();
    const rows = await readDatabase({ dataDir, databaseUrl }, (db) =>
      db.select().from(analyticsEvents),
    );
    const features = rows.filter((row) => row.name === "feature_use");
    expect(features.map((row) => row.params)).toEqual(
      expect.arrayContaining([
        // Each carries how many uses it stands for (issue 34: the cockpit counted reports).
        { feature_name: "serial_monitor", count: 3 },
        { feature_name: "pin_map", count: 1 },
        { feature_name: "flasher", count: 2 },
      ]),
    );
    expect(features).toHaveLength(3);
    expect(features.every((row) => row.occurredAt.toISOString() === at)).toBe(true);
    // One pseudonymous id for the device, naming neither it nor its account.
    const ids = new Set(features.map((row) => row.clientId));
    expect(ids.size).toBe(1);
    const [clientId] = [...ids];
    expect(clientId).toMatch(/^desktop:[0-9a-f]{32}$/);
    expect(JSON.stringify(rows)).not.toContain(deviceId);
    expect(JSON.stringify(rows)).not.toContain(userId);
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
  });
});
