import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { webStreamOf } from "./web-stream";

describe("webStreamOf", () => {
  it("hands over every byte of the source", async () => {
    let produced = 0;
    // A byte stream as a file is: 1,000 chunks of 64 KB. (That it reads no further ahead than
    // asked is measured on the server: security-review.test.ts serves 200 MB with memory flat.)
    const source = new Readable({
      highWaterMark: 64 * 1024,
      read() {
        produced += 1;
        this.push(produced <= 1000 ? Buffer.alloc(64 * 1024, produced % 256) : null);
      },
    });
    const reader = webStreamOf(source).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBe(64 * 1024);
    let total = first.value?.length ?? 0;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      total += next.value.length;
    }
    expect(total).toBe(64 * 1024 * 1000);
  });

  it("destroys the source when the reader cancels", async () => {
    const source = Readable.from(["a", "b", "c"].map((text) => Buffer.from(text)));
    const reader = webStreamOf(source).getReader();
    await reader.read();
    await reader.cancel();
    expect(source.destroyed).toBe(true);
  });
});
