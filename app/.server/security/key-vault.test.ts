import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, openJwk, openSecret, sealJwk, sealSecret } from "./key-vault.server";

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

describe("queued secrets at rest", () => {
  const key = randomBytes(32);

  it("seals a link so the stored form does not contain it, and opens it again", () => {
    const link = "https://example.com/api/auth/verify-email?token=secret-token-value";
    const sealed = sealSecret(link, key);
    expect(JSON.stringify(sealed)).not.toContain("secret-token-value");
    expect(openSecret(sealed, key)).toBe(link);
  });

  it("refuses plain text, another key and tampering", () => {
    expect(() => openSecret("https://example.com/plain", key)).toThrow();
    const sealed = sealSecret("value", key);
    expect(() => openSecret(sealed, randomBytes(32))).toThrow();
    expect(() =>
      openSecret({ ...sealed, tag: Buffer.alloc(16).toString("base64") }, key),
    ).toThrow();
  });
});
