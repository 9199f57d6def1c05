import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-redirect";

describe("safeNext", () => {
  it.each([
    ["/account/security", "/account/security"],
    ["/billing?plan=pro-yearly#pay", "/billing?plan=pro-yearly#pay"],
    ["/", "/"],
  ])("keeps the same-origin path %s", (input, expected) => {
    expect(safeNext(input)).toBe(expected);
  });

  it.each([
    null,
    "",
    "https://evil.example/account",
    "//evil.example/account",
    "/\\evil.example",
    "javascript:alert(1)",
    "account",
    "/\tevil",
    "/ //evil.example",
  ])("falls back to /account for %j", (input) => {
    expect(safeNext(input)).toBe("/account");
  });

  it("never leaves the origin, whatever the encoding", () => {
    for (const input of [
      "/%2F%2Fevil.example",
      "/%5Cevil.example",
      "/..//evil.example",
      "/./\\evil",
    ]) {
      const result = safeNext(input);
      expect(new URL(result, "https://pinout.dev").origin).toBe("https://pinout.dev");
    }
  });
});
