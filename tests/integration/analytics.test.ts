import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents } from "~/.server/db/schema";
import { postJson } from "../support/auth";
import { engines } from "../support/engines";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";
import { readDatabase } from "../support/test-database";

describe.each(engines())("analytics collector on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  const send = (body: unknown, consent: string | null = "granted", address?: string) =>
    postJson(server, "/api/events", body, {
      ...(consent ? { cookie: `consent=${consent}` } : {}),
      ...(address ? { "x-forwarded-for": address } : {}),
    });

  beforeAll(async () => {
    databaseUrl = await engine.freshDatabaseUrl();
    server = await startServer({
      dataDir,
      env: { DATABASE_URL: databaseUrl, TRUST_PROXY: "loopback" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("refuses an unknown event or a wrong field type with the reason", async () => {
    const unknown = await send({
      events: [
        {
          name: "page_view",
          params: { page_title: "Home", page_location: "http://x/", page_path: "/" },
        },
        { name: "teleport", params: {} },
      ],
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: 'events[1]: unknown event "teleport"' });
    const wrongType = await send({
      events: [{ name: "search", params: { search_term: "uart", results_count: "many" } }],
    });
    expect(wrongType.status).toBe(400);
    expect(((await wrongType.json()) as { error: string }).error).toMatch(
      /^events\[0\]: search\.results_count: /,
    );
    expect((await send("not an object")).status).toBe(400);
  });

  it("gives at most 20 new ids a day to one address; past that, events are stored without one", async () => {
    const statuses: boolean[] = [];
    for (let i = 0; i < 22; i += 1) {
      const response = await send(
        { events: [{ name: "faq_click", params: { question: "Cap?" } }] },
        "granted",
        "198.51.100.77",
      );
      expect(response.status).toBe(200);
      statuses.push(response.headers.getSetCookie().some((line) => line.startsWith("pinout_aid=")));
    }
    expect(statuses.filter(Boolean)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([false, false]);
  });

  it("stores nothing without consent", async () => {
    const batch = {
      events: [{ name: "cta_click", params: { cta_name: "download", cta_location: "hero" } }],
    };
    expect((await send(batch, null)).status).toBe(403);
    expect((await send(batch, "denied")).status).toBe(403);
  });

  it("stores a valid batch with the spec's defaults applied", async () => {
    const response = await send({
      clientId: "6f1c1c4e-8f0e-4d1a-9d4e-2b1f4a9c0e11",
      events: [
        {
          name: "exception",
          params: { error_type: "javascript_error", description: "boom", location: "/pricing" },
        },
        { name: "faq_click", params: { question: "Do the prices include GST?" } },
        {
          name: "purchase",
          params: { value: 699, transaction_id: "pay_29QQoUBi66xm2f", items: [] },
        },
        // URLs lose everything but harmless parameters; secret-bearing pages are not stored.
        {
          name: "page_view",
          params: {
            page_title: "Search",
            page_location: "http://x/search?q=uart&email=asha%40example.com",
            page_path: "/search",
          },
        },
        {
          name: "page_view",
          params: {
            page_title: "Reset",
            page_location: "http://x/auth?view=reset&token=SECRET-RESET-TOKEN",
            page_path: "/auth",
          },
        },
      ],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ stored: 4 });
    // Issue 32, point 11: the id is ours, in a signed cookie, whatever the body said.
    const issued = /pinout_aid=([0-9a-f-]{36})\.[\w-]+/.exec(
      response.headers.getSetCookie().join("\n"),
    );
    expect(issued).not.toBeNull();
    const cookie = `consent=granted; ${issued![0]}`;
    const again = await postJson(
      server,
      "/api/events",
      { events: [{ name: "faq_click", params: { question: "Is there a trial?" } }] },
      { cookie },
    );
    expect(again.status).toBe(200);
    expect(again.headers.getSetCookie()).toEqual([]);
    // A made-up cookie is not an id: the batch gets a new one.
    const forged = await postJson(
      server,
      "/api/events",
      { events: [{ name: "faq_click", params: { question: "Made up?" } }] },
      {
        cookie:
          "consent=granted; pinout_aid=6f1c1c4e-8f0e-4d1a-9d4e-2b1f4a9c0e11.AAAAAAAAAAAAAAAAAAAAAA",
      },
    );
    expect(forged.headers.getSetCookie().join("")).toMatch(/pinout_aid=/);
    expect(forged.headers.getSetCookie().join("")).not.toContain("6f1c1c4e");

    await server.stop();
    const rows = (
      await readDatabase({ dataDir, databaseUrl }, (db) => db.select().from(analyticsEvents))
    ).filter((row) => (row.params as { question?: string }).question !== "Cap?");
    // Only these batches: the refused ones above stored nothing.
    expect(rows.map((row) => row.name).sort()).toEqual([
      "exception",
      "faq_click",
      "faq_click",
      "faq_click",
      "page_view",
      "purchase",
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/SECRET-RESET-TOKEN|asha/);
    const params = Object.fromEntries(rows.map((row) => [row.name, row.params]));
    expect(params.exception).toMatchObject({ fatal: false });
    expect(params.faq_click).toMatchObject({ section: "pricing" });
    expect(params.purchase).toMatchObject({ currency: "INR" });
    expect(params.page_view).toMatchObject({ page_location: "http://x/search?q=uart" });
    expect(rows.some((row) => row.clientId === "6f1c1c4e-8f0e-4d1a-9d4e-2b1f4a9c0e11")).toBe(false);
    const first = rows.filter(
      (row) => (row.params as { question?: string }).question !== "Made up?",
    );
    expect(new Set(first.map((row) => row.clientId))).toEqual(new Set([issued![1]]));
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
  });
});
