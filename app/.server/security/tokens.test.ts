import { describe, expect, it } from "vitest";
import { hashToken, randomToken, s256, safeEqual, verifyPkce } from "./tokens";

describe("tokens", () => {
  it("are at least 128 bits, URL-safe and different every time", () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(randomToken()).not.toBe(token);
  });

  it("are stored as a SHA-256 hex hash", () => {
    expect(hashToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("compare without short-circuiting", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});

describe("PKCE S256 (RFC 7636 appendix B)", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  it("matches the RFC's test vector", () => {
    expect(s256(verifier)).toBe(challenge);
    expect(verifyPkce(verifier, challenge)).toBe(true);
  });
  it("refuses another verifier, or one of the wrong shape", () => {
    expect(verifyPkce(verifier.replace("d", "e"), challenge)).toBe(false);
    expect(verifyPkce("short", s256("short"))).toBe(false);
  });
});
