/**
 * /metrics in the Prometheus text format (issue 35, point 3; decision 0048), with prom-client:
 * requests and their latency by route id (never the raw path: its cardinality is unbounded),
 * the job lanes, webhooks, payments, mails and the database pool, and the process's own memory
 * and event-loop delay. Counters of requests live in this process; what the database holds
 * (jobs, webhooks, payments, mails) is read at each scrape, so every instance reports the same
 * business figures and a restart loses none of them.
 */
import { count, isNull, min, sql } from "drizzle-orm";
import client from "prom-client";
import { queueOverview } from "../admin/jobs.server";
import { databaseHandle, db } from "../db";
import { mailLog, payments, webhookEvents } from "../db/schema";
import { env } from "../env";
import { safeEqual } from "../security/tokens";

const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

const requests = new client.Counter({
  name: "pinout_http_requests_total",
  help: "HTTP requests answered, by route id, method and status.",
  labelNames: ["route", "method", "status"] as const,
  registers: [registry],
});
const latency = new client.Histogram({
  name: "pinout_http_request_duration_seconds",
  help: "Time to answer an HTTP request, by route id and method.",
  labelNames: ["route", "method"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/** Methods as they are; anything else is one label, so a client cannot invent series. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Counts one answered request. `route` is the route id, or a fixed word (static, unmatched). */
export function observeRequest(route: string, method: string, status: number, seconds: number) {
  const verb = METHODS.has(method) ? method : "OTHER";
  requests.inc({ route, method: verb, status: String(status) });
  latency.observe({ route, method: verb }, seconds);
}

// Read from the database at each scrape (a gauge's collect runs then).
new client.Gauge({
  name: "pinout_jobs",
  help: "Unfinished jobs by lane and state (due, running, retrying, dead).",
  labelNames: ["lane", "state"] as const,
  registers: [registry],
  async collect() {
    const { lanes } = await queueOverview(db());
    this.reset();
    for (const lane of lanes)
      for (const state of ["due", "running", "retrying", "dead"] as const)
        this.set({ lane: lane.lane, state }, lane[state]);
  },
});
new client.Gauge({
  name: "pinout_jobs_oldest_due_seconds",
  help: "How long the oldest due job of each lane has waited (0: none waiting).",
  labelNames: ["lane"] as const,
  registers: [registry],
  async collect() {
    const { lanes } = await queueOverview(db());
    const now = Date.now();
    for (const lane of lanes)
      this.set(
        { lane: lane.lane },
        lane.oldestDueAt ? Math.max(0, (now - lane.oldestDueAt.getTime()) / 1000) : 0,
      );
  },
});
new client.Gauge({
  name: "pinout_webhooks_received",
  help: "Razorpay webhook events stored, by whether they have been processed.",
  labelNames: ["processed"] as const,
  registers: [registry],
  async collect() {
    const rows = await db()
      .select({ processed: sql<boolean>`${webhookEvents.processedAt} is not null`, n: count() })
      .from(webhookEvents)
      .groupBy(sql`1`);
    this.set({ processed: "true" }, 0);
    this.set({ processed: "false" }, 0);
    for (const row of rows) this.set({ processed: String(row.processed) }, row.n);
  },
});
new client.Gauge({
  name: "pinout_webhook_lag_seconds",
  help: "How long the oldest webhook event not yet processed has waited (0: none).",
  registers: [registry],
  async collect() {
    const [row] = await db()
      .select({ oldest: min(webhookEvents.receivedAt) })
      .from(webhookEvents)
      .where(isNull(webhookEvents.processedAt));
    const oldest = row?.oldest ? new Date(row.oldest).getTime() : null;
    this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
  },
});
/**
 * A gauge of row counts by status, read at each scrape; the `known` statuses are always present
 * (0 until the first row), so a rate over them starts from zero rather than from nothing.
 */
function statusCounts(
  name: string,
  help: string,
  known: readonly string[],
  read: () => Promise<{ status: string; n: number }[]>,
) {
  new client.Gauge({
    name,
    help,
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      const rows = await read();
      this.reset();
      for (const status of known) this.set({ status }, 0);
      for (const row of rows) this.set({ status: row.status }, row.n);
    },
  });
}
statusCounts(
  "pinout_payments",
  "Payments recorded, by Razorpay status (captured, failed, refunded, …).",
  ["captured", "failed", "refunded"],
  () =>
    db().select({ status: payments.status, n: count() }).from(payments).groupBy(payments.status),
);
statusCounts(
  "pinout_mails",
  "Mails in the mail log (12 months), by whether the last try sent them.",
  ["sent", "failed"],
  () => db().select({ status: mailLog.status, n: count() }).from(mailLog).groupBy(mailLog.status),
);
new client.Gauge({
  name: "pinout_db_pool_connections",
  help: "PostgreSQL pool connections: total, idle, and requests waiting for one (absent on the embedded database).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    // Reset first: a gauge keeps what it was set to, and this database may have no pool.
    this.reset();
    const stats = databaseHandle().poolStats?.();
    if (!stats) return;
    this.set({ state: "total" }, stats.total);
    this.set({ state: "idle" }, stats.idle);
    this.set({ state: "waiting" }, stats.waiting);
    this.set({ state: "max" }, stats.max);
  },
});

export type MetricsAccess = "off" | "allowed" | "refused";

/**
 * Whether a scrape may read /metrics: "off" (neither METRICS_TOKEN nor METRICS_ALLOWED_IPS is
 * set: the address answers 404, as if it did not exist), "allowed" (the bearer token matches,
 * compared in constant time by digest, or the client's address is listed), else "refused".
 */
export function metricsAccess(authorization: string | undefined, clientIp: string): MetricsAccess {
  const { METRICS_TOKEN, METRICS_ALLOWED_IPS } = env();
  if (!METRICS_TOKEN && METRICS_ALLOWED_IPS.length === 0) return "off";
  // An IPv4 client on an IPv6 socket reads "::ffff:10.0.0.5".
  if (METRICS_ALLOWED_IPS.includes(clientIp.replace(/^::ffff:/, ""))) return "allowed";
  if (METRICS_TOKEN && authorization?.startsWith("Bearer ")) {
    // Digests compared: the token's length does not leak either.
    if (safeEqual(authorization.slice("Bearer ".length), METRICS_TOKEN)) return "allowed";
  }
  return "refused";
}

/** The exposition: its content type and text. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
