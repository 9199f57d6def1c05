import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { localStorage, sweepAbandonedUploads } from "./local.server";
import { UploadTooLargeError } from "./types";

function tempRoot() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "pinout-storage-"));
}

describe("local release storage", () => {
  it("streams a file in, with its size and both hashes, and reads ranges back", async () => {
    const root = tempRoot();
    const storage = localStorage(root);
    const bytes = Buffer.from("0123456789".repeat(10_000));
    const stored = await storage.put(
      "1.0.0/a.dmg",
      Readable.from([bytes.subarray(0, 500), bytes.subarray(500)]),
      {
        maxBytes: 1_000_000,
        contentType: "application/octet-stream",
      },
    );
    expect(stored).toEqual({
      size: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      sha512: createHash("sha512").update(bytes).digest("base64"),
      sha1: createHash("sha1").update(bytes).digest("hex"),
    });
    expect(await storage.size("1.0.0/a.dmg")).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.read("1.0.0/a.dmg", { start: 10, end: 19 }))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("0123456789");
  });

  it("leaves nothing behind when the upload is too large or breaks off", async () => {
    const root = tempRoot();
    const storage = localStorage(root);
    await expect(
      storage.put("1.0.0/big.dmg", Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), {
        maxBytes: 1000,
        contentType: "application/octet-stream",
      }),
    ).rejects.toBeInstanceOf(UploadTooLargeError);
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(100));
        this.destroy(new Error("connection reset"));
      },
    });
    await expect(
      storage.put("1.0.0/broken.dmg", broken, { maxBytes: 1000, contentType: "x" }),
    ).rejects.toThrow("connection reset");
    expect(fs.readdirSync(path.join(root, "1.0.0"))).toEqual([]);
    expect(await storage.size("1.0.0/big.dmg")).toBeNull();
  });

  it("refuses keys that leave the folder", async () => {
    const storage = localStorage(tempRoot());
    await expect(storage.size("../outside")).rejects.toThrow("leaves");
  });

  it("removes at start-up the .partial files of uploads killed mid-way, never one being written (issue 32, point 8)", async () => {
    const root = tempRoot();
    const hour = 60 * 60_000;
    const now = Date.now();
    const file = (name: string, ageMs: number) => {
      const full = path.join(root, name);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, "bytes");
      const at = new Date(now - ageMs);
      fs.utimesSync(full, at, at);
      return full;
    };
    const abandoned = file("2.0.0/Pinout-2.0.0.dmg.5f1c.partial", 3 * hour);
    const writing = file("2.0.0/Pinout-2.0.0.exe.9a2b.partial", 5_000);
    const stored = file("1.0.0/Pinout-1.0.0.dmg", 30 * 24 * hour);
    expect(await sweepAbandonedUploads(root, hour, now)).toBe(1);
    expect(fs.existsSync(abandoned)).toBe(false);
    expect(fs.existsSync(writing)).toBe(true);
    expect(fs.existsSync(stored)).toBe(true);
    // A folder that does not exist yet (no release published) is nothing to sweep.
    expect(await sweepAbandonedUploads(path.join(root, "none"), hour, now)).toBe(0);
  });

  it("leaves no .partial file behind when a put is cut off", async () => {
    const root = tempRoot();
    const storage = localStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error("connection reset"));
      },
    });
    await expect(
      storage.put("3.0.0/a.dmg", failing, { maxBytes: 1_000_000, contentType: "x" }),
    ).rejects.toThrow("connection reset");
    expect(fs.readdirSync(path.join(root, "3.0.0"))).toEqual([]);
  });
});
