import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_HEADERS } from "../support/auth";
import { textOf } from "../support/pages";
import { linkFromMail } from "../support/mail";
import { type RunningTestServer, startServer } from "../support/server";

/**
 * Issue 11, point 1: `PORT=… npm start` without SITE_URL. The site's own address follows the port,
 * and sign-up works from the browser at either loopback spelling of it.
 */
describe("first run on another port without SITE_URL", () => {
  let server: RunningTestServer;
  const signUp = (origin: string, email: string) =>
    fetch(`${server.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { ...BROWSER_HEADERS, "content-type": "application/json", origin },
      body: JSON.stringify({ name: "First", email, password: "first-run-password" }),
    });

  beforeAll(async () => {
    server = await startServer({ env: { SITE_URL: undefined } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("signs up from http://localhost:<port> and http://127.0.0.1:<port>", async () => {
    const local = await signUp(`http://localhost:${server.port}`, "first@example.com");
    expect(local.status, await local.clone().text()).toBe(200);
    const loopback = await signUp(`http://127.0.0.1:${server.port}`, "second@example.com");
    expect(loopback.status).toBe(200);
    // The verification mail links to the address the site runs at.
    expect(
      await linkFromMail(server.dataDir, "first@example.com", "/api/auth/verify-email"),
    ).toContain(`http://localhost:${server.port}/`);
  });

  it("prints its own address on the legal pages, never the default port", async () => {
    const terms = textOf(await (await fetch(`${server.url}/legal/terms`)).text());
    expect(terms).not.toContain("localhost:3000");
  });

  it("refuses another origin with a message that says what to configure", async () => {
    const elsewhere = await signUp("http://pinout.lan:8080", "third@example.com");
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.json()).toMatchObject({ code: "INVALID_ORIGIN" });
    // Logged before the answer was sent.
    expect(server.output()).toContain("set SITE_URL");
  });
});
