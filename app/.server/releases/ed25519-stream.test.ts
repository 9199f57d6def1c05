import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { signStreamed, verifyStreamed } from "./ed25519-stream";

describe("signStreamed", () => {
  it("makes the signature Node's Ed25519 makes of the whole message, for any size and chunking", async () => {
    const { privateKey } = generateKeyPairSync("ed25519");
    const seed = Buffer.from(privateKey.export({ format: "jwk" }).d ?? "", "base64url");
    for (const size of [0, 1, 63, 64, 1_000, 70_000, 1_048_577]) {
      const message = randomBytes(size);
      let reads = 0;
      const read = async () => {
        reads += 1;
        // Chunks of an odd size, as storage hands them over.
        const chunks: Buffer[] = [];
        for (let at = 0; at < message.length; at += 4_099)
          chunks.push(message.subarray(at, at + 4_099));
        return Readable.from(chunks);
      };
      const streamed = Buffer.from(await signStreamed(seed, read));
      expect(streamed.equals(sign(null, message, privateKey)), `size ${size}`).toBe(true);
      expect(reads).toBe(2);
    }
  });

  it("verifies as Node verifies: a good signature passes, a changed byte, key or signature fails", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const other = generateKeyPairSync("ed25519").publicKey;
    const raw = (key: typeof publicKey) =>
      Buffer.from(key.export({ format: "jwk" }).x ?? "", "base64url");
    const message = randomBytes(70_000);
    const read = async () => Readable.from([message.subarray(0, 4_099), message.subarray(4_099)]);
    const signature = sign(null, message, privateKey);
    expect(await verifyStreamed(raw(publicKey), signature, read)).toBe(true);
    expect(await verifyStreamed(raw(other), signature, read)).toBe(false);
    const bent = Buffer.from(signature);
    bent[40] = (bent[40] ?? 0) ^ 1;
    expect(await verifyStreamed(raw(publicKey), bent, read)).toBe(false);
    const changed = Buffer.from(message);
    changed[5] = (changed[5] ?? 0) ^ 1;
    expect(
      await verifyStreamed(raw(publicKey), signature, async () => Readable.from([changed])),
    ).toBe(false);
    expect(await verifyStreamed(raw(publicKey), signature.subarray(0, 63), read)).toBe(false);
  });
});
