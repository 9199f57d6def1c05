/**
 * Issue 57, point 1: heartbeats. A machine silent past DEVICE_SILENT_DAYS holds no device slot: a
 * fourth machine signs in on Pro's three, the silent one's check-in is refused with words while
 * every slot is taken (and nothing else it calls revives it), and it comes back once one is free.
 * The silence is made by moving the machine's last check-in back past the window, as the clock
 * moving forward would.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWithCookies, signUpVerified } from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { desktopHandoff, exchangeHandoff, signInDevice } from "../support/desktop";
import { httpEngine } from "../support/engines";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

describe("heartbeats", () => {
  let server: RunningTestServer;
  beforeAll(async () => {
    server = await startServerOn(httpEngine(), {
      env: { AUTH_RATE_LIMIT: "100", DEVICE_CHECK_IN_HOURS: "6", DEVICE_SILENT_DAYS: "14" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const checkIn = (token: string) =>
    fetch(`${server.url}/api/desktop/heartbeat`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
  const lastSeen = async (name: string) =>
    (
      await server.sql(
        `select extract(epoch from now() - last_seen_at)::int as seconds_ago from desktop_devices where name = '${name}'`,
      )
    )[0]?.seconds_ago as number;

  it("frees a silent machine's slot, refuses it while all are taken, and revives it when one is free", async () => {
    const cookie = await signUpVerified(server, {
      name: "Kavya",
      email: "kavya@example.com",
      password: "heartbeats-password-1",
    });
    await buyThroughSandbox(server, cookie);
    const signedIn = await exchangeHandoff(
      server,
      await desktopHandoff(server, cookie),
      "Bench one",
    );
    const tokens = (await signedIn.json()) as { access_token: string; refresh_token: string };
    let one = tokens.access_token;
    const two = await signInDevice(server, cookie, "Bench two");
    await signInDevice(server, cookie, "Bench three");

    // A check-in answers the entitlement and when to check in again.
    const first = await checkIn(one);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      entitlement: { plan: "pro-monthly", device_limit: 3 },
      check_in: { interval_seconds: 6 * 3600, silent_after_seconds: 14 * 86_400 },
    });
    expect((await fetch(`${server.url}/api/desktop/heartbeat`)).status).toBe(405);
    const refusedFourth = await exchangeHandoff(
      server,
      await desktopHandoff(server, cookie),
      "Bench four",
    );
    expect(refusedFourth.status).toBe(403);

    // Bench one falls silent past the window: its slot is free, and the account says why.
    await server.sql(
      "update desktop_devices set last_seen_at = now() - interval '15 days' where name = 'Bench one'",
    );
    expect(await pageText(server, "/account/security", cookie)).toContain(
      "so its slot was freed for another computer",
    );
    await signInDevice(server, cookie, "Bench four");

    // Checking in again while all three slots are taken: refused, with words, and still silent.
    const refused = await checkIn(one);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: "device_limit_reached",
      error_description: expect.stringContaining("Pro is in use on 3 other machines"),
      manage_devices_url: "/account/security",
    });
    // Nothing else it calls revives it either: a token refresh gives it new tokens but keeps it
    // silent, and so do its usage reports.
    const refreshed = await fetch(`${server.url}/api/desktop/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refresh_token: tokens.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    one = ((await refreshed.json()) as { access_token: string }).access_token;
    expect(await lastSeen("Bench one")).toBeGreaterThan(14 * 86_400);
    const usage = await fetch(`${server.url}/api/desktop/usage`, {
      method: "POST",
      headers: { authorization: `Bearer ${one}`, "content-type": "application/json" },
      body: JSON.stringify({ events: [] }),
    });
    expect(usage.status).toBeLessThan(500);
    expect(await lastSeen("Bench one")).toBeGreaterThan(14 * 86_400);

    // One machine is signed out: the silent one's next check-in brings it back.
    const out = await fetch(`${server.url}/api/desktop/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${two}` },
    });
    expect(out.status).toBeLessThan(300);
    const revived = await checkIn(one);
    expect(revived.status).toBe(200);
    expect(await lastSeen("Bench one")).toBeLessThan(60);
    expect(await pageText(server, "/account/security", cookie)).not.toContain(
      "so its slot was freed",
    );
    // /me says when to check in too.
    const me = await fetch(`${server.url}/api/desktop/me`, {
      headers: { authorization: `Bearer ${one}` },
    });
    expect(((await me.json()) as { check_in: unknown }).check_in).toEqual({
      interval_seconds: 6 * 3600,
      silent_after_seconds: 14 * 86_400,
    });
    expect((await getWithCookies(server, "/account/security", cookie)).status).toBe(200);
  });
});
