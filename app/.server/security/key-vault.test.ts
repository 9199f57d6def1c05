import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, openJwk, sealJwk } from "./key-vault";

describe("signing keys at rest", () => {
  const key = randomBytes(32);
  const jwk = { kty: "OKP", crv: "Ed25519", x: "public-part", d: "private-part" };

  it("seals a private key so the stored form does not contain it, and opens it again", () => {
    const sealed = sealJwk(jwk, key);
    expect(isSealed(sealed)).toBe(true);
    expect(JSON.stringify(sealed)).not.toContain("private-part");
    expect(openJwk(sealed, key)).toEqual(jwk);
  });

  it("refuses a sealed key under another encryption key or after tampering", () => {
    const sealed = sealJwk(jwk, key);
    expect(() => openJwk(sealed, randomBytes(32))).toThrow();
    const tampered = {
      ...sealed,
      data: Buffer.from("x").toString("base64") + sealed.data.slice(4),
    };
    expect(() => openJwk(tampered, key)).toThrow();
  });

  it("reads rows written before sealing as they are", () => {
    expect(openJwk(jwk, key)).toEqual(jwk);
  });
});
