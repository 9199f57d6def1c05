import { describe, expect, it } from "vitest";
import { nulField } from "./nul-field";

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("nulField", () => {
  it("names the JSON field, however deep", async () => {
    expect(await nulField(json({ name: "a\0b" }), "application/json")).toBe("name");
    expect(await nulField(json({ data: { items: ["ok", "x\0"] } }), "application/json")).toBe(
      "data.items.1",
    );
    expect(await nulField(json({ ["k\0"]: 1 }), "application/json; charset=utf-8")).toBe("k\\0");
    expect(await nulField(json({ name: "fine", n: 0 }), "application/json")).toBeNull();
  });

  it("names the form field, urlencoded or multipart, and ignores files", async () => {
    const form = Buffer.from(new URLSearchParams({ email: "a@b.c", message: "hi\0" }).toString());
    expect(await nulField(form, "application/x-www-form-urlencoded")).toBe("message");
    const data = new FormData();
    data.set("name", "Asha\0");
    data.set("file", new Blob([new Uint8Array([0, 1, 2])]), "bytes.bin");
    const request = new Request("http://x", { method: "POST", body: data });
    const body = Buffer.from(await request.arrayBuffer());
    expect(await nulField(body, request.headers.get("content-type") ?? "")).toBe("name");
    const onlyFile = new FormData();
    onlyFile.set("file", new Blob([new Uint8Array([0, 0])]), "zeros.bin");
    const second = new Request("http://x", { method: "POST", body: onlyFile });
    expect(
      await nulField(
        Buffer.from(await second.arrayBuffer()),
        second.headers.get("content-type") ?? "",
      ),
    ).toBeNull();
  });

  it("leaves malformed and other bodies to the route", async () => {
    expect(await nulField(Buffer.from("{not json\\u0000"), "application/json")).toBeNull();
    expect(await nulField(Buffer.from("a\0b"), "text/plain")).toBeNull();
  });
});
