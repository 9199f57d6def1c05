import { describe, expect, it } from "vitest";
import { desktopCallbackUrl, isAllowedDesktopRedirect } from "./desktop-redirect";

describe("isAllowedDesktopRedirect", () => {
  it.each([
    "http://127.0.0.1:53682/callback",
    "http://127.0.0.1:1/",
    "http://[::1]:8080/cb",
    "pinout://auth/callback",
    "pinout:/oauth2redirect",
  ])("allows %s", (uri) => {
    expect(isAllowedDesktopRedirect(uri)).toBe(true);
  });

  it.each([
    "https://evil.example/cb",
    "http://localhost:53682/cb",
    "http://127.0.0.1/cb",
    "http://127.0.0.1.evil.example:80/cb",
    "https://127.0.0.1:443/cb",
    "http://user:pass@127.0.0.1:5000/cb",
    "javascript:alert(1)",
    "notpinout://cb",
    "",
    "not a url",
  ])("refuses %j", (uri) => {
    expect(isAllowedDesktopRedirect(uri)).toBe(false);
  });

  it("adds the token and state to the query", () => {
    expect(desktopCallbackUrl("http://127.0.0.1:5000/cb?x=1", "t k", "s")).toBe(
      "http://127.0.0.1:5000/cb?x=1&token=t+k&state=s",
    );
  });
});
