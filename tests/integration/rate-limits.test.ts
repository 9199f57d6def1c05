import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

/** Issue 9, point 9: the desktop API and the callable functions count requests per client. */
describe("API rate limits", () => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(httpEngine(), {
      env: { API_RATE_LIMIT: "5", UPDATES_RATE_LIMIT: "4", TRUST_PROXY: "loopback" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 429 with Retry-After once a client passes the desktop API limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      const response = await fetch(`${server.url}/api/desktop/me`, {
        headers: { authorization: "Bearer not-a-real-token-0000000000" },
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(((await response.json()) as { error: string }).error).toBe("rate_limited");
      }
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    // However the path is spelled, it is the same route and the same counter.
    expect((await fetch(`${server.url}/API/desktop/me`)).status).toBe(429);
  });

  it("counts the callable functions separately, with the same rule", async () => {
    const call = () =>
      fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ data: {} }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await call()).status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    expect(statuses.at(-1)).toBe(429);
  });

  // Issue 32, point 2: 5,000 anonymous update checks in 19 s from one client.
  it("counts update checks per client, fast path and app alike, with their own limit", async () => {
    const check = (path: string, client = "203.0.113.7") =>
      fetch(`${server.url}${path}`, { headers: { "x-forwarded-for": client } });
    const statuses: number[] = [];
    for (const path of [
      "/updates/tauri/darwin/aarch64/1.0.0",
      "/updates/stable/latest.yml",
      "/updates/tauri/windows/x86_64/1.0.0",
      "/updates/stable/appcast.xml",
      "/updates/tauri/darwin/aarch64/1.0.0",
      "/updates/stable/latest-mac.yml",
    ]) {
      const response = await check(path);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(((await response.json()) as { error: string }).error).toBe("rate_limited");
      } else await response.arrayBuffer();
    }
    expect(statuses.slice(0, 4).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(4)).toEqual([429, 429]);
    // Another client is counted on its own; the desktop API's count is not the updates' one.
    expect((await check("/updates/tauri/darwin/aarch64/1.0.0", "203.0.113.8")).status).not.toBe(
      429,
    );
    expect(
      (
        await fetch(`${server.url}/api/desktop/me`, {
          headers: { "x-forwarded-for": "203.0.113.7" },
        })
      ).status,
    ).toBe(401);
  });
});
