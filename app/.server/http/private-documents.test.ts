import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PrivateDocuments, dataText, renderKey, type RenderInputs } from "./private-documents";

const inputs = (overrides: Partial<RenderInputs> = {}): RenderInputs => ({
  url: "http://localhost/account",
  viewer: "user-asha",
  status: 200,
  loaderData: { root: { siteUrl: "http://localhost" }, "routes/account/layout": { banner: null } },
  actionData: null,
  errors: null,
  ...overrides,
});

const document = (size: number) => ({
  body: new Uint8Array(new ArrayBuffer(size)),
  scriptHashes: ["sha256-x"],
});

describe("the key of a signed-in render", () => {
  it("is the same for the same URL and data, whatever the objects", () => {
    expect(renderKey(inputs())).toBe(renderKey(inputs()));
    expect(renderKey(inputs())).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("changes with the URL, the data, the action data and the India day", () => {
    const key = renderKey(inputs());
    expect(renderKey(inputs({ url: "http://localhost/account?tab=2" }))).not.toBe(key);
    expect(renderKey(inputs({ loaderData: { root: { siteUrl: "http://other" } } }))).not.toBe(key);
    expect(renderKey(inputs({ actionData: { ok: true } }))).not.toBe(key);
    // 18:29 and 18:31 UTC are two days in India (UTC+05:30).
    expect(renderKey(inputs(), new Date("2026-11-24T18:29:00Z"))).not.toBe(
      renderKey(inputs(), new Date("2026-11-24T18:31:00Z")),
    );
    expect(renderKey(inputs(), new Date("2026-11-24T10:00:00Z"))).toBe(
      renderKey(inputs(), new Date("2026-11-24T18:29:00Z")),
    );
  });

  it("differs for each signed-in account, even with byte-identical data (issue 32, point 14)", () => {
    expect(renderKey(inputs({ viewer: "user-ravi" }))).not.toBe(renderKey(inputs()));
    expect(renderKey(inputs({ viewer: null }))).not.toBe(renderKey(inputs()));
  });

  it("is never made for an error, a status other than 200, or data that is not plain", () => {
    expect(renderKey(inputs({ status: 403 }))).toBeNull();
    expect(renderKey(inputs({ errors: { root: new Error("x") } }))).toBeNull();
    expect(renderKey(inputs({ loaderData: { page: Promise.resolve(1) } }))).toBeNull();
    expect(renderKey(inputs({ loaderData: { page: new Map() } }))).toBeNull();
    expect(renderKey(inputs({ loaderData: { page: () => 1 } }))).toBeNull();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(renderKey(inputs({ loaderData: cycle }))).toBeNull();
  });

  it("tells apart any two different pieces of data, types included", () => {
    const date = new Date("2026-11-24T00:00:00.000Z");
    const distinct = [
      undefined,
      null,
      false,
      0,
      -0,
      "0",
      "",
      [],
      {},
      [undefined],
      [null],
      { a: undefined },
      { a: null },
      date,
      date.toISOString(),
      date.getTime(),
      1n,
      "1",
      ["a", "b"],
      ["a,b"],
      { "a,b": 1 },
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      [{ a: "1" }],
      [{ a: 1 }],
    ];
    const texts = distinct.map((value) => dataText(value));
    expect(texts.every((text) => text !== null)).toBe(true);
    expect(new Set(texts).size).toBe(distinct.length);
  });

  it("writes equal JSON-like data equally and different data differently", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const same = JSON.stringify(a) === JSON.stringify(b);
        // -0 and 0 are one JSON number but two inputs of a render.
        const signed = JSON.stringify(a, (_k, v: unknown) => (Object.is(v, -0) ? "-0" : v));
        const signedB = JSON.stringify(b, (_k, v: unknown) => (Object.is(v, -0) ? "-0" : v));
        expect(dataText(a) === dataText(b)).toBe(same && signed === signedB);
        expect(dataText(structuredClone(a))).toBe(dataText(a));
      }),
    );
  });

  it("writes a value met twice (not a cycle) each time", () => {
    const shared = { plan: "pro" };
    expect(dataText({ a: shared, b: shared })).toBe(
      dataText({ a: { plan: "pro" }, b: { plan: "pro" } }),
    );
  });
});

describe("the store of signed-in renders", () => {
  it("gives back what was stored under a key, and nothing under another", () => {
    const store = new PrivateDocuments();
    store.set("a", document(10));
    expect(store.get("a")?.body.length).toBe(10);
    expect(store.get("b")).toBeUndefined();
  });

  it("keeps within its bytes, the least recently used out first", () => {
    const store = new PrivateDocuments(300);
    store.set("a", document(100));
    store.set("b", document(100));
    store.set("c", document(100));
    expect(store.get("a")).toBeDefined(); // a is now the most recent
    store.set("d", document(100));
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")).toBeDefined();
    expect(store.get("c")).toBeDefined();
    expect(store.get("d")).toBeDefined();
    expect(store.bytes).toBe(300);
    store.set("c", document(50));
    expect(store.bytes).toBe(250);
    expect(store.size).toBe(3);
  });

  it("never keeps a document larger than it may hold", () => {
    const store = new PrivateDocuments(100);
    store.set("big", document(101));
    expect(store.get("big")).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it("forgets a document once it is older than its age limit", () => {
    const store = new PrivateDocuments(1000, 60_000);
    store.set("a", document(10), 0);
    expect(store.get("a", 60_000)).toBeDefined();
    expect(store.get("a", 60_001)).toBeUndefined();
    expect(store.bytes).toBe(0);
    expect(store.size).toBe(0);
  });
});
