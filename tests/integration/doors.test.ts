/**
 * Issue 54: one finisher for every door. Whichever door answers a request (server/pipeline.ts:
 * the refusal of a target no door can read, the public cache, a fast answer, express's own
 * addresses and the build's files, React Router's pages, API routes and 404s), the answer leaves
 * through server/finish.ts: it carries the security headers and an X-Request-Id, exactly one
 * access-log line names that id (with the door's mark), and /metrics counts it once, under its
 * route, and moves no other series.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityHeaders } from "../../server/security-headers";
import { BROWSER_HEADERS } from "../support/auth";
import { eventually } from "../support/eventually";
import { engines } from "../support/engines";
import { rawWithEveryHeader } from "../support/raw-http";
import { type RunningTestServer, startServerOn } from "../support/server";

const TOKEN = "doors-test-metrics-token-0123456789abcdef";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** What the test site sends on every answer (plain http, the payment sandbox, no analytics). */
const { "Content-Security-Policy": BASE_POLICY, ...SECURITY } = securityHeaders({
  https: false,
  development: false,
});

interface Answer {
  status: number;
  header(name: string): string | null;
}

interface Door {
  name: string;
  /** What must be so before the request, for it to reach its door. */
  prepare?(server: RunningTestServer): Promise<unknown>;
  send(server: RunningTestServer): Promise<Answer>;
  method: string;
  /** The path its log line shows. */
  path: string;
  status: number;
  /** Its /metrics series. */
  route: string;
  /** What its log line says of the door (nothing for express and React Router). */
  mark: { answer?: string; cache?: string };
  /** An HTML page: its CSP lists its inline scripts' hashes instead of the base policy. */
  page?: boolean;
}

async function get(server: RunningTestServer, path: string): Promise<Answer> {
  const response = await fetch(server.url + path, { headers: BROWSER_HEADERS, redirect: "manual" });
  await response.arrayBuffer();
  return { status: response.status, header: (name) => response.headers.get(name) };
}

/** A request fetch would not send as written (it resolves dot segments). */
async function sendRaw(server: RunningTestServer, head: string): Promise<Answer> {
  const answer = await rawWithEveryHeader(server.port, `${head}Connection: close\r\n\r\n`);
  const headers = new Map<string, string>();
  for (const line of answer.headers) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return {
    status: Number(answer.status.split(" ")[1]),
    header: (name) => headers.get(name.toLowerCase()) ?? null,
  };
}

const DOORS: Door[] = [
  {
    name: "the refusal of a path with dot segments",
    send: (server) => sendRaw(server, "GET /updates/../pricing HTTP/1.1\r\nHost: x\r\n"),
    method: "GET",
    path: "/updates/../pricing",
    status: 400,
    route: "refused",
    mark: { answer: "refused" },
  },
  {
    name: "the refusal of a body over its cap before 100 Continue",
    send: (server) =>
      sendRaw(
        server,
        "POST /api/desktop/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
          "Content-Length: 10485760\r\nExpect: 100-continue\r\n",
      ),
    method: "POST",
    path: "/api/desktop/token",
    status: 413,
    route: "routes/desktop/token",
    mark: { answer: "refused" },
  },
  {
    name: "a public cache hit",
    // Rendered and stored by the first request; answered from memory (with its ETag) after that.
    prepare: (server) =>
      eventually(async () => (await get(server, "/pricing")).header("etag"), 20_000, "a hit"),
    send: (server) => get(server, "/pricing"),
    method: "GET",
    path: "/pricing",
    status: 200,
    route: "routes/pricing",
    mark: { cache: "hit" },
    page: true,
  },
  {
    name: "a fast answer",
    send: (server) => get(server, "/api/desktop/me"),
    method: "GET",
    path: "/api/desktop/me",
    status: 401,
    route: "routes/desktop/me",
    mark: { answer: "fast" },
  },
  {
    name: "a static file (express)",
    send: (server) => get(server, "/favicon.ico"),
    method: "GET",
    path: "/favicon.ico",
    status: 200,
    route: "static",
    mark: {},
  },
  {
    name: "an address express answers itself",
    send: (server) => get(server, "/healthz"),
    method: "GET",
    path: "/healthz",
    status: 200,
    route: "healthz",
    mark: {},
  },
  {
    name: "express's 404 for a build file that is not there",
    send: (server) => get(server, "/assets/no-such-file.js"),
    method: "GET",
    path: "/assets/no-such-file.js",
    status: 404,
    route: "static",
    mark: {},
  },
  {
    name: "a React Router page",
    send: (server) => get(server, "/search?q=doors"),
    method: "GET",
    path: "/search",
    status: 200,
    route: "routes/search",
    mark: {},
    page: true,
  },
  {
    name: "a React Router API route",
    send: (server) => get(server, "/api/session"),
    method: "GET",
    path: "/api/session",
    status: 200,
    route: "routes/api/session",
    mark: {},
  },
  {
    name: "React Router's 404 page",
    send: (server) => get(server, "/no/such/page"),
    method: "GET",
    path: "/no/such/page",
    status: 404,
    route: "routes/not-found",
    mark: {},
    page: true,
  },
];

describe.each(engines())("every door finishes through the finisher on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServerOn(engine, { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The request counts of /metrics (requests and latency observations), but its own. */
  async function scrape(): Promise<{ requestId: string; counts: Map<string, number> }> {
    const response = await fetch(`${server.url}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    const counts = new Map<string, number>();
    const series =
      /^pinout_http_(requests_total|request_duration_seconds_count)\{([^}]*)\} (\d+)$/gm;
    for (const [, name, labels = "", value] of (await response.text()).matchAll(series)) {
      const label = Object.fromEntries(
        [...labels.matchAll(/(\w+)="([^"]*)"/g)].map(([, key, text]) => [key, text]),
      );
      if (label.route === "metrics") continue;
      const key =
        name === "requests_total"
          ? `requests ${label.route} ${label.method} ${label.status}`
          : `latency ${label.route} ${label.method}`;
      counts.set(key, Number(value));
    }
    return { requestId: response.headers.get("x-request-id") ?? "", counts };
  }

  it.each(DOORS)("$name", async (door) => {
    await door.prepare?.(server);
    const before = await scrape();
    const answer = await door.send(server);
    const after = await scrape();
    expect(answer.status).toBe(door.status);

    // The security headers, each once, and one CSP: the page's own or the base policy.
    for (const [name, value] of Object.entries(SECURITY))
      expect(answer.header(name), name).toBe(value);
    const policy = answer.header("content-security-policy") ?? "";
    expect(policy).not.toContain(", default-src");
    if (door.page) expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
    else expect(policy).toBe(BASE_POLICY);

    const requestId = answer.header("x-request-id") ?? "";
    expect(requestId).toMatch(UUID);

    // Lines are written in order: once the later scrape's is there, this request's all are.
    const requestLines = () => server.logs().filter((line) => line.msg === "request");
    await expect
      .poll(() => requestLines().some((line) => line.reqId === after.requestId))
      .toBe(true);
    const lines = requestLines().filter((line) => line.reqId === requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: door.method,
      path: door.path,
      status: door.status,
      ip: "127.0.0.1",
    });
    expect({ answer: lines[0]?.answer, cache: lines[0]?.cache }).toEqual({
      answer: undefined,
      cache: undefined,
      ...door.mark,
    });

    // Counted once, under its route, and nowhere else.
    const moved = [...after.counts]
      .map(([key, count]) => [key, count - (before.counts.get(key) ?? 0)] as const)
      .filter(([, difference]) => difference !== 0);
    expect(Object.fromEntries(moved)).toEqual({
      [`requests ${door.route} ${door.method} ${door.status}`]: 1,
      [`latency ${door.route} ${door.method}`]: 1,
    });
  });
});
