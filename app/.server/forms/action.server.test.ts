import { RouterContextProvider, type UNSAFE_DataWithResponseInit } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type * as sessionModule from "../auth/session";
import { type Session, sessionContext } from "../auth/session";
import { AppError, type AppErrorCode } from "../http/errors";
import { done, formAction, type FormResult } from "./action.server";

const visitor = vi.hoisted(() => ({ session: null as Session | null }));
vi.mock("../auth/session", async (original) => ({
  ...(await original<typeof sessionModule>()),
  getSession: async () => visitor.session,
}));

const asha: Session = {
  id: "s1",
  user: { id: "u1", email: "asha@example.com", name: "Asha", role: "user", emailVerified: true },
};
const boss: Session = { ...asha, user: { ...asha.user, id: "u2", role: "admin" } };

const schema = z.object({
  intent: z.literal("save"),
  name: z.string().min(2, "Enter your name."),
  city: z.string().min(2, "Enter your city."),
});

function args(fields: Record<string, string>, session?: Session) {
  const context = new RouterContextProvider();
  if (session) context.set(sessionContext, session);
  const request = new Request("http://localhost/form", {
    method: "POST",
    body: new URLSearchParams(fields),
  });
  return { request, context };
}

/** What `data()` carries: the body and the status the route answers with. */
function answer(result: unknown) {
  const init = result as UNSAFE_DataWithResponseInit<FormResult>;
  return {
    body: init.data,
    status: init.init?.status ?? 200,
    headers: new Headers(init.init?.headers),
  };
}

beforeEach(() => {
  visitor.session = null;
});

describe("formAction", () => {
  it("runs with the parsed input and the guard's session", async () => {
    const result = await formAction(
      args({ intent: "save", name: "Asha", city: "Pune", extra: "ignored" }, asha),
      schema,
      async (input, session) => done(input.intent, `${session.user.name}: ${input.city}`),
    );
    expect(answer(result)).toMatchObject({
      status: 200,
      body: { intent: "save", ok: true, message: "Asha: Pune" },
    });
  });

  it("returns every field error at once with a 400, and never runs", async () => {
    const run = vi.fn();
    const result = await formAction(args({ intent: "save", name: "" }, asha), schema, run);
    expect(run).not.toHaveBeenCalled();
    expect(answer(result)).toMatchObject({
      status: 400,
      body: {
        intent: "save",
        ok: false,
        message: "Check the highlighted fields.",
        errors: { name: ["Enter your name."], city: [expect.any(String)] },
      },
    });
  });

  it("maps every AppError code to its status and message, beside its field when it names one", async () => {
    const statuses: Record<AppErrorCode, number> = {
      invalid: 400,
      forbidden: 403,
      not_found: 404,
      conflict: 409,
      too_large: 413,
      rate_limited: 429,
      provider_failed: 502,
    };
    for (const [code, status] of Object.entries(statuses) as [AppErrorCode, number][]) {
      const result = await formAction(
        args({ intent: "save", name: "Asha", city: "Pune" }, asha),
        schema,
        async () => {
          throw new AppError(
            code,
            `refused: ${code}`,
            code === "conflict" ? { field: "name" } : {},
          );
        },
      );
      const { body, status: answered } = answer(result);
      expect(answered, code).toBe(status);
      expect(body).toMatchObject({ intent: "save", ok: false, message: `refused: ${code}` });
      expect(body.errors).toEqual(code === "conflict" ? { name: [`refused: ${code}`] } : undefined);
    }
  });

  it("sends Retry-After with a rate limit, and what was typed when asked to echo it", async () => {
    const result = await formAction(
      args({ intent: "save", name: "Asha", city: "Pune", password: "secret-value" }, asha),
      schema,
      async () => {
        throw new AppError("rate_limited", "Wait a minute.", { retryAfter: 59.2 });
      },
      { echo: ["name", "city", "missing"] },
    );
    const { body, status, headers } = answer(result);
    expect(status).toBe(429);
    expect(headers.get("retry-after")).toBe("60");
    expect(body.values).toEqual({ name: "Asha", city: "Pune", missing: "" });
    expect(JSON.stringify(body)).not.toContain("secret-value");
  });

  it("lets anything but an AppError through (a redirect, or a 500 the server logs)", async () => {
    const failure = new Error("database away");
    await expect(
      formAction(args({ intent: "save", name: "Asha", city: "Pune" }, asha), schema, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
  });

  it("refuses a signed-in user who is not an admin where the form says role: admin", async () => {
    const run = vi.fn(async () => done("save", "ok"));
    const fields = { intent: "save", name: "Asha", city: "Pune" };
    const refused = await formAction(args(fields, asha), schema, run, { role: "admin" });
    expect(answer(refused)).toMatchObject({ status: 403, body: { ok: false } });
    expect(run).not.toHaveBeenCalled();
    await formAction(args(fields, boss), schema, run, { role: "admin" });
    expect(run).toHaveBeenCalledOnce();
  });

  it("serves a public form to anyone: the visitor's session, or null", async () => {
    const fields = { intent: "save", name: "Asha", city: "Pune" };
    const who = async (_input: unknown, session: Session | null) =>
      done("save", session?.user.email ?? "anonymous");
    expect(
      answer(await formAction(args(fields), schema, who, { who: "anyone" })).body.message,
    ).toBe("anonymous");
    visitor.session = asha;
    expect(
      answer(await formAction(args(fields), schema, who, { who: "anyone" })).body.message,
    ).toBe("asha@example.com");
  });

  it("throws on a signed-in form reached without its guard (a routing mistake, not a refusal)", async () => {
    await expect(
      formAction(args({ intent: "save", name: "Asha", city: "Pune" }), schema, async () => "x"),
    ).rejects.toThrow("without an auth guard");
  });
});
