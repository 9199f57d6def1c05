import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiAction, oauthErrors } from "./api-action";
import { AppError, type AppErrorCode } from "./errors";

const schema = z.object({ name: z.string().min(1), count: z.number().int().optional() }).strict();

function post(body: BodyInit | null, headers: Record<string, string> = {}) {
  return new Request("http://localhost/api/thing", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    // A streamed body (below) needs this in Node's fetch implementation.
    duplex: "half",
  } as RequestInit);
}

const run = (
  request: Request,
  handler: (input: z.infer<typeof schema>) => Promise<unknown> = async (input) => ({
    ok: input.name,
  }),
) => apiAction(request, { schema, maxBytes: 100 }, handler);

describe("apiAction", () => {
  it("answers the handler's result as JSON, or the Response it returns", async () => {
    const ok = await run(post(JSON.stringify({ name: "asha" })));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    expect(await ok.json()).toEqual({ ok: "asha" });
    const created = await apiAction(
      post(JSON.stringify({ name: "x" })),
      { schema, status: 201 },
      async () => ({ id: 1 }),
    );
    expect(created.status).toBe(201);
    const own = await run(
      post(JSON.stringify({ name: "x" })),
      async () => new Response("raw", { status: 202 }),
    );
    expect([own.status, await own.text()]).toEqual([202, "raw"]);
  });

  it("maps every AppError code to its status and the message for people", async () => {
    const expected: Record<AppErrorCode, number> = {
      invalid: 400,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      too_large: 413,
      rate_limited: 429,
      provider_failed: 502,
    };
    for (const [code, status] of Object.entries(expected) as [AppErrorCode, number][]) {
      const response = await run(post(JSON.stringify({ name: "x" })), async () => {
        throw new AppError(code, `refused: ${code}`);
      });
      expect(response.status, code).toBe(status);
      expect(await response.json()).toEqual({ error: `refused: ${code}` });
    }
  });

  it("names the field a refusal is about", async () => {
    const fromSchema = await run(post(JSON.stringify({ name: "" })));
    expect(fromSchema.status).toBe(400);
    expect(await fromSchema.json()).toEqual({
      error: "name: Too small: expected string to have >=1 characters",
      field: "name",
    });
    const fromDomain = await run(post(JSON.stringify({ name: "x" })), async () => {
      throw new AppError("conflict", "That name is taken.", { field: "name" });
    });
    expect(await fromDomain.json()).toEqual({ error: "That name is taken.", field: "name" });
    const extra = await run(post(JSON.stringify({ name: "x", admin: true })));
    expect(extra.status).toBe(400);
  });

  it("says when to ask again after a rate limit (Retry-After, whole seconds)", async () => {
    const limited = await run(post(JSON.stringify({ name: "x" })), async () => {
      throw new AppError("rate_limited", "Slow down.", { retryAfter: 12.5 });
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("13");
    const other = await run(post(JSON.stringify({ name: "x" })), async () => {
      throw new AppError("conflict", "Taken.");
    });
    expect(other.headers.has("retry-after")).toBe(false);
  });

  it("refuses a body that is not JSON with 415, and broken JSON with 400", async () => {
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "application/jsonp",
      "",
    ]) {
      const response = await run(post(JSON.stringify({ name: "x" }), { "content-type": type }));
      expect(response.status, type).toBe(415);
      expect(await response.json()).toEqual({ error: "Send the body as application/json." });
    }
    expect(
      (
        await run(
          post(JSON.stringify({ name: "x" }), {
            "content-type": "application/json; charset=utf-8",
          }),
        )
      ).status,
    ).toBe(200);
    const broken = await run(post("{name:"));
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: "The body is not valid JSON." });
  });

  it("refuses an oversized body with 413, declared or streamed, without reading it all", async () => {
    const big = JSON.stringify({ name: "x".repeat(200) });
    expect((await run(post(big))).status).toBe(413);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new TextEncoder().encode(" ".repeat(64)));
      },
    });
    const streamed = await run(post(endless));
    expect(streamed.status).toBe(413);
    expect(await streamed.json()).toEqual({ error: "The body must be at most 100 bytes." });
    expect(pulled).toBeLessThan(10);
  });

  it("writes the desktop API's refusals as OAuth errors", async () => {
    const shaped = (request: Request, handler: () => Promise<unknown>) =>
      apiAction(request, { schema, shape: oauthErrors }, handler);
    const invalid = await shaped(post("[]"), async () => ({}));
    expect(await invalid.json()).toEqual({
      error: "invalid_request",
      error_description: "body: Invalid input: expected object, received array",
    });
    const wrongType = await shaped(post("{}", { "content-type": "text/plain" }), async () => ({}));
    expect([wrongType.status, ((await wrongType.json()) as { error: string }).error]).toEqual([
      415,
      "invalid_request",
    ]);
    const limited = await shaped(post(JSON.stringify({ name: "x" })), async () => {
      throw new AppError("rate_limited", "Slow down.");
    });
    expect(await limited.json()).toEqual({
      error: "rate_limited",
      error_description: "Slow down.",
    });
  });

  it("lets any other error through (a 500 the server logs)", async () => {
    await expect(
      run(post(JSON.stringify({ name: "x" })), async () => {
        throw new Error("database down");
      }),
    ).rejects.toThrow("database down");
  });
});
