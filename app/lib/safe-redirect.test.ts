import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-redirect";

describe("safeNext", () => {
  it.each([
    ["/account/security", "/account/security"],
    ["/billing?plan=pro-yearly#pay", "/billing?plan=pro-yearly#pay"],
    ["/", "/"],
    // An encoded slash later in the path is only a character of it.
    ["/blog/a%2Fb", "/blog/a%2Fb"],
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
    // Issue 32, point 15: Better Auth decodes these and refused the whole sign-in with 403.
    "/%5Cevil.example",
    "/%5cevil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/./%5Cevil",
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
