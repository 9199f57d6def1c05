import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequestHandler } from "@react-router/express";
import express from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  bodyLimit,
  bodyRuleFor,
  bodyRules,
  FORM_BODY_LIMIT,
  JSON_BODY_LIMIT,
  OTHER_BODY_LIMIT,
  withBufferedBody,
} from "./body-limit";
import { chunkedBody } from "../tests/support/streams";

/** What the action saw, so a test can tell whether a refused request reached it. */
let reached: { path: string; bytes: number }[] = [];

/**
 * A one-route React Router build behind the real express adapter, wired as server/express-app.ts
 * wires it: the action echoes the size and hash of the body it read, and the fields of a form.
 */
const echo = {
  async action({ request }: { request: Request }) {
    const path = new URL(request.url).pathname;
    const type = request.headers.get("content-type") ?? "";
    if (type.startsWith("application/x-www-form-urlencoded")) {
      const form = await request.formData();
      const fields = Object.fromEntries([...form].map(([k, v]) => [k, String(v).length]));
      reached.push({ path, bytes: -1 });
      return Response.json({ fields });
    }
    const bytes = Buffer.from(await request.arrayBuffer());
    reached.push({ path, bytes: bytes.length });
    return Response.json({
      bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      text: bytes.length < 200 ? bytes.toString("utf8") : undefined,
    });
  },
};

/** The webhook's own cap in app/routes/api/webhooks-razorpay.ts. */
const WEBHOOK_LIMIT = 256 * 1024;

const build = {
  entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
  routes: {
    root: { id: "root", path: "", module: {} },
    webhook: {
      id: "webhook",
      parentId: "root",
      path: "api/webhooks/razorpay",
      module: { ...echo, handle: { body: { limit: WEBHOOK_LIMIT } } },
    },
    upload: {
      id: "upload",
      parentId: "root",
      path: "api/admin/releases/:id/files/:name",
      module: { ...echo, handle: { body: "streamed" } },
    },
    echo: { id: "echo", parentId: "root", path: "*", module: echo },
  },
  assets: { routes: {}, entry: { module: "", imports: [] }, url: "", version: "test" },
  publicPath: "/",
  assetsBuildDirectory: "build/client",
  future: {},
  ssr: true,
  isSpaMode: false,
  prerender: [],
  routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  // A stand-in build: only the fields the request handler reads for a resource route.
} as unknown as ServerBuild;

let server: http.Server;
let base = "";

beforeAll(async () => {
  const app = express();
  const handleRequest = createRequestHandler({ build, mode: "production" });
  app.use(bodyLimit(bodyRules(build)));
  app.all("/{*path}", (req, res, next) => handleRequest(withBufferedBody(req), res, next));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  reached = [];
});

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** A body sent in pieces with no Content-Length (Transfer-Encoding: chunked). */
const chunked = (total: number, piece = 16 * 1024) => chunkedBody(total, piece);

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(base + path, { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("bodyRuleFor", () => {
  it("caps JSON and /api/* at 64 KB, forms and anything else at 1 MB", () => {
    expect(bodyRuleFor("/feedback", "application/json; charset=utf-8")).toEqual({
      limit: JSON_BODY_LIMIT,
      json: true,
    });
    expect(bodyRuleFor("/x", "application/merge-patch+json")?.limit).toBe(JSON_BODY_LIMIT);
    expect(bodyRuleFor("/api/desktop/token", "text/plain")).toEqual({
      limit: JSON_BODY_LIMIT,
      json: true,
    });
    expect(bodyRuleFor("/API/desktop/token", undefined)?.limit).toBe(JSON_BODY_LIMIT);
    expect(bodyRuleFor("/%61pi/events", undefined)?.limit).toBe(JSON_BODY_LIMIT);
    expect(bodyRuleFor("/feedback", "application/x-www-form-urlencoded")).toEqual({
      limit: FORM_BODY_LIMIT,
      json: false,
    });
    expect(bodyRuleFor("/feedback", "Multipart/Form-Data; boundary=x")?.limit).toBe(
      FORM_BODY_LIMIT,
    );
    expect(bodyRuleFor("/feedback", "application/octet-stream")?.limit).toBe(OTHER_BODY_LIMIT);
    expect(bodyRuleFor("/feedback", undefined)?.limit).toBe(OTHER_BODY_LIMIT);
  });

  it("takes a route's own cap, or leaves a streamed route alone", () => {
    expect(bodyRuleFor("/api/webhooks/razorpay", "application/json", { limit: 10 })).toEqual({
      limit: 10,
      json: true,
    });
    expect(bodyRuleFor("/upload", "text/plain", { limit: 10 })).toEqual({
      limit: 10,
      json: false,
    });
    expect(bodyRuleFor("/api/admin/releases/r1/files/app.dmg", "", "streamed")).toBeNull();
  });
});

describe("bodyRules (the route React Router matches decides)", () => {
  const ruleOf = (url: string, type = "application/octet-stream") =>
    bodyRules(build).ruleFor({ url, headers: { "content-type": type } } as http.IncomingMessage);

  it("finds the routes that cap or stream their own bodies, by React Router's matching", async () => {
    expect(await ruleOf("/api/webhooks/razorpay")).toEqual({ limit: WEBHOOK_LIMIT, json: true });
    // React Router matches case-insensitively and decoded: so do the caps.
    expect(await ruleOf("/API/Webhooks/Razorpay")).toEqual({ limit: WEBHOOK_LIMIT, json: true });
    expect(await ruleOf("/api/%77ebhooks/razorpay")).toEqual({ limit: WEBHOOK_LIMIT, json: true });
    expect(await ruleOf("/api/admin/releases/r1/files/app.dmg")).toBeNull();
    expect(await ruleOf("/api/admin/releases/r1/files/app.dmg?arch=x64")).toBeNull();
  });

  it("caps everything else by content type, whatever the path starts with", async () => {
    // A prefix is not a route: the webhook's cap is its own path's only.
    expect(await ruleOf("/api/webhooks/razorpay/extra")).toEqual({
      limit: JSON_BODY_LIMIT,
      json: true,
    });
    expect(await ruleOf("/api/webhooks/razorpay/../../desktop/token")).toEqual({
      limit: JSON_BODY_LIMIT,
      json: true,
    });
    expect(await ruleOf("/api/admin/releases/r1/files")).toEqual({
      limit: JSON_BODY_LIMIT,
      json: true,
    });
    expect(await ruleOf("/admin/releases.data", "multipart/form-data")).toEqual({
      limit: FORM_BODY_LIMIT,
      json: false,
    });
  });
});

describe("bodyLimit in front of React Router", () => {
  it("refuses a JSON body one byte over 64 KB by its Content-Length, with a JSON message", async () => {
    const response = await post("/feedback", "x".repeat(JSON_BODY_LIMIT + 1), {
      "content-type": "application/json",
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      error: "Request body too large: the limit is 64 KB.",
    });
    expect(reached).toEqual([]);
  });

  it("refuses a chunked JSON body without Content-Length once it passes 64 KB", async () => {
    const response = await post("/api/desktop/token", chunked(JSON_BODY_LIMIT * 4), {
      "content-type": "application/json",
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: "Request body too large: the limit is 64 KB.",
    });
    expect(reached).toEqual([]);
  });

  it("refuses any body to /api/* over 64 KB with JSON, whatever its type", async () => {
    const response = await post("/api/events", "a".repeat(100 * 1024), {
      "content-type": "text/plain",
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: "Request body too large: the limit is 64 KB.",
    });
  });

  it("passes a 500 KB form to the action whole", async () => {
    const response = await post(
      "/feedback",
      new URLSearchParams({ message: "m".repeat(500 * 1024), email: "a@example.com" }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ fields: { message: 500 * 1024, email: 13 } });
    expect(reached).toHaveLength(1);
  });

  it("refuses a form one byte over 1 MB with a plain-text message", async () => {
    const body = `message=${"m".repeat(FORM_BODY_LIMIT + 1 - "message=".length)}`;
    const response = await post("/feedback", body, {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("Request body too large: the limit is 1 MB.");
    expect(reached).toEqual([]);
  });

  it("refuses a chunked form once it passes 1 MB", async () => {
    const response = await post("/feedback", chunked(FORM_BODY_LIMIT + 1), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(413);
    expect(reached).toEqual([]);
  });

  it("caps the webhook at its own limit and streams release uploads uncapped", async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 0x62);
    const webhook = await post("/api/webhooks/razorpay", big, {
      "content-type": "application/json",
    });
    expect(webhook.status).toBe(413);
    expect(await webhook.json()).toEqual({ error: "Request body too large: the limit is 256 KB." });
    const chunkedWebhook = await post("/api/webhooks/razorpay", chunked(WEBHOOK_LIMIT + 1), {
      "content-type": "application/json",
    });
    expect(chunkedWebhook.status).toBe(413);
    const fits = Buffer.alloc(WEBHOOK_LIMIT, 0x63);
    const signed = await post("/api/webhooks/razorpay", fits, {
      "content-type": "application/json",
    });
    expect(signed.status).toBe(200);
    // The raw bytes reach the action as they were sent (the signature is checked on them).
    expect(await signed.json()).toMatchObject({ bytes: fits.length, sha256: sha256(fits) });

    const upload = await post("/api/admin/releases/r1/files/big.dmg", big, {
      "content-type": "application/octet-stream",
    });
    expect(upload.status).toBe(200);
    expect(await upload.json()).toMatchObject({ bytes: big.length, sha256: sha256(big) });
    const streamed = await post("/api/admin/releases/r1/files/app.dmg", chunked(3 * 1024 * 1024));
    expect(streamed.status).toBe(200);
    expect(await streamed.json()).toMatchObject({ bytes: 3 * 1024 * 1024 });
  });

  it("answers 413 to a 12 MB body while it is still being sent, not a reset", async () => {
    for (const headers of [
      { "content-type": "application/json", "content-length": String(12 * 1024 * 1024) },
      { "content-type": "application/json", "transfer-encoding": "chunked" },
    ]) {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(`${base}/api/desktop/token`, { method: "POST", headers });
        request.on("response", (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on("error", reject);
        const piece = Buffer.alloc(256 * 1024, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < 12 * 1024 * 1024) {
            sent += piece.length;
            if (!request.write(piece)) return void request.once("drain", pump);
          }
          request.end();
        };
        pump();
      });
      expect(answer.status, JSON.stringify(headers)).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        error: "Request body too large: the limit is 64 KB.",
      });
    }
    expect(reached).toEqual([]);
  });

  it("hands a small body, and one of exactly the limit, to the action intact", async () => {
    const small = JSON.stringify({ name: "Aśha ✓", n: 1 });
    const response = await post("/api/functions/echo", small, {
      "content-type": "application/json",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      bytes: Buffer.byteLength(small),
      sha256: sha256(small),
      text: small,
    });

    const exact = await post("/api/desktop/usage", chunked(JSON_BODY_LIMIT, 1000), {
      "content-type": "application/json",
    });
    expect(exact.status).toBe(200);
    expect(await exact.json()).toMatchObject({
      bytes: JSON_BODY_LIMIT,
      sha256: sha256(Buffer.alloc(JSON_BODY_LIMIT, 0x61)),
    });
  });

  it("gives an action an empty body when none was sent", async () => {
    const response = await fetch(`${base}/account/security`, { method: "DELETE" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ bytes: 0 });
  });
});
