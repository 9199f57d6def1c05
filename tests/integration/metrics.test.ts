/**
 * Issue 35, point 3: /metrics in the Prometheus text format, refused without the token, parsed by
 * a Prometheus text-format parser, and its figures move when a request, a job (a mail sent) and a
 * webhook happen.
 */
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson } from "../support/auth";
import { postWebhook, SANDBOX, signedWebhook } from "../support/billing";
import { engines } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

const TOKEN = "metrics-test-token-0123456789abcdef";

interface Family {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}

describe.each(engines())("/metrics on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  let lastText = "";
  const scrape = async (): Promise<Family[]> => {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    lastText = await response.text();
    return parsePrometheusTextFormat(lastText) as Family[];
  };
  /** A histogram's count of observations, read from the text (the parser keeps only buckets). */
  const observations = (text: string, name: string, labels: string) =>
    Number(new RegExp(`^${name}_count\\{${labels}\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  /** A series' value (a counter, a gauge); 0 when absent. */
  const value = (families: Family[], name: string, labels: Record<string, string> = {}) => {
    const family = families.find((candidate) => candidate.name === name);
    const series = family?.metrics.find((metric) =>
      Object.entries(labels).every(([key, wanted]) => metric.labels?.[key] === wanted),
    );
    return Number(series?.value ?? 0);
  };

  it("is refused without the bearer token, with the wrong one, and parses with it", async () => {
    const bare = await fetch(`${server.url}/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const wrong = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN.replace(/.$/, "x")}` },
    });
    expect(wrong.status).toBe(401);

    const families = await scrape();
    const names = families.map((family) => family.name);
    for (const name of [
      "pinout_http_requests_total",
      "pinout_http_request_duration_seconds",
      "pinout_jobs",
      "pinout_jobs_oldest_due_seconds",
      "pinout_webhooks_received",
      "pinout_webhook_lag_seconds",
      "pinout_payments",
      "pinout_mails",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(names, name).toContain(name);
    for (const lane of ["money", "mail", "maintenance"])
      expect(value(families, "pinout_jobs", { lane, state: "dead" })).toBe(0);
    // The pool of PostgreSQL connections; the embedded database has none to report.
    expect(value(families, "pinout_db_pool_connections", { state: "max" })).toBe(
      engine.name === "postgres" ? 10 : 0,
    );
  });

  it("counts requests by route id, a mail the job lane sent, and a webhook processed", async () => {
    const before = await scrape();
    const beforeText = lastText;
    for (let i = 0; i < 3; i++) expect((await fetch(`${server.url}/pricing`)).status).toBe(200);
    // A made-up address is one series, not one per address.
    expect((await fetch(`${server.url}/no/such/${Date.now()}`)).status).toBe(404);
    // React Router's route discovery (a link the browser may follow): its own series, not a 404
    // page's (issue 54).
    const discovery = await fetch(`${server.url}/__manifest?p=%2Fpricing&version=x`);
    expect(discovery.status).toBeLessThan(400);

    // A job: the verification mail of a sign-up, sent by the mail lane.
    const signUp = await postJson(server, "/api/auth/sign-up/email", {
      name: "Metrics",
      email: "metrics-mail@example.com",
      password: "metrics-password-1",
    });
    expect(signUp.status).toBe(200);
    // A webhook: stored and processed (an event about nothing of ours changes nothing else).
    const delivery = signedWebhook(
      JSON.stringify({
        entity: "event",
        event: "payment.failed",
        contains: ["payment"],
        payload: {
          payment: {
            entity: {
              id: `pay_Metrics${Date.now()}`.slice(0, 18),
              entity: "payment",
              amount: 69_900,
              currency: "INR",
              status: "failed",
              method: "card",
              amount_refunded: 0,
              created_at: Math.floor(Date.now() / 1000),
            },
          },
        },
        created_at: Math.floor(Date.now() / 1000),
      }),
      SANDBOX.webhookSecret,
    );
    expect((await postWebhook(server.url, delivery)).status).toBe(200);
    await server.jobsSettled();

    const after = await scrape();
    const pricing = { route: "routes/pricing", method: "GET", status: "200" };
    expect(
      value(after, "pinout_http_requests_total", pricing) -
        value(before, "pinout_http_requests_total", pricing),
    ).toBe(3);
    const unmatched = { route: "routes/not-found", method: "GET", status: "404" };
    expect(
      value(after, "pinout_http_requests_total", unmatched) -
        value(before, "pinout_http_requests_total", unmatched),
    ).toBe(1);
    const manifest = { route: "__manifest", method: "GET", status: String(discovery.status) };
    expect(
      value(after, "pinout_http_requests_total", manifest) -
        value(before, "pinout_http_requests_total", manifest),
    ).toBe(1);
    const pricingLatency = 'route="routes/pricing",method="GET"';
    expect(
      observations(lastText, "pinout_http_request_duration_seconds", pricingLatency) -
        observations(beforeText, "pinout_http_request_duration_seconds", pricingLatency),
    ).toBe(3);
    expect(
      value(after, "pinout_mails", { status: "sent" }) -
        value(before, "pinout_mails", { status: "sent" }),
    ).toBe(1);
    expect(
      value(after, "pinout_webhooks_received", { processed: "true" }) -
        value(before, "pinout_webhooks_received", { processed: "true" }),
    ).toBe(1);
    expect(value(after, "pinout_webhook_lag_seconds")).toBe(0);
    expect(
      value(after, "pinout_payments", { status: "failed" }) -
        value(before, "pinout_payments", { status: "failed" }),
    ).toBe(1);
  });
});
