import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedback } from "~/.server/db/schema";
import { BROWSER_HEADERS, postForm } from "../support/auth";
import { engines } from "../support/engines";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";
import { readDatabase } from "../support/test-database";

const VALID = {
  email: "Maya@Example.com",
  category: "bug",
  message: "The serial monitor drops bytes at 921600 baud on Windows 11.",
  rating: "4",
  appVersion: "2.1.0",
  os: "Windows 11",
};

describe.each(engines())("feedback on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(server, "/feedback", "", fields, headers);

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    server = await startServer({
      dataDir,
      env: { DATABASE_URL: databaseUrl, FEEDBACK_RATE_LIMIT: "2" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows every field error next to its field when the form is posted without JavaScript", async () => {
    const response = await post({ email: "nope", category: "", message: "short", rating: "" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Enter an email address like name@example.com.");
    expect(html).toContain("Choose what your message is about.");
    expect(html).toContain("Write at least 10 characters.");
    // What was typed is kept.
    expect(html).toContain('value="nope"');
  });

  it("stores a valid message and redirects to a confirmation (post/redirect/get)", async () => {
    const response = await post(VALID);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/feedback?sent=1");
    const confirmation = await (
      await fetch(`${server.url}/feedback?sent=1`, { headers: BROWSER_HEADERS })
    ).text();
    expect(confirmation).toContain("your message has reached the team");
  });

  it("drops a bot's message quietly (honeypot)", async () => {
    const response = await post({ ...VALID, website: "http://spam.example" });
    expect(response.status).toBe(302);
  });

  it("limits messages per address with a clear 429", async () => {
    expect((await post(VALID)).status).toBe(302);
    const limited = await post(VALID);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.text()).toContain("You have sent several messages in the last hour");
  });

  it("refuses a cross-site post", async () => {
    const response = await post(VALID, {
      origin: "https://evil.example",
      "sec-fetch-site": "cross-site",
    });
    expect(response.status).toBe(403);
  });

  it("stored exactly the valid messages, normalised, with status new", async () => {
    await server.stop();
    const rows = await readDatabase({ dataDir, databaseUrl }, (db) => db.select().from(feedback));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      email: "maya@example.com",
      category: "bug",
      rating: 4,
      appVersion: "2.1.0",
      os: "Windows 11",
      status: "new",
      userId: null,
    });
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
  });
});
