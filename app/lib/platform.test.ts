import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { browserPlatform, detectPlatform } from "./platform";

const MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const LINUX =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";

describe("detectPlatform", () => {
  it.each([
    [{ "user-agent": MAC }, "mac"],
    [{ "user-agent": WINDOWS }, "windows"],
    [{ "user-agent": LINUX }, "other"],
    [{ "user-agent": IPHONE }, "other"],
    [{ "user-agent": LINUX, "sec-ch-ua-platform": '"macOS"' }, "mac"],
    [{ "user-agent": MAC, "sec-ch-ua-platform": '"Windows"' }, "windows"],
    [{ "user-agent": WINDOWS, "sec-ch-ua-platform": '"Linux"' }, "other"],
    [{}, "other"],
  ])("%j → %s", (headers, expected) => {
    expect(detectPlatform(new Headers(headers))).toBe(expected);
  });
});

const ANDROID =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const IPAD =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148";

describe("browserPlatform", () => {
  it.each([
    [{ userAgent: MAC }, "mac"],
    [{ userAgent: WINDOWS }, "windows"],
    [{ userAgent: LINUX }, "other"],
    [{ userAgent: IPHONE }, "other"],
    [{ userAgent: IPAD }, "other"],
    [{ userAgent: ANDROID }, "other"],
    [{ userAgent: "" }, "other"],
    [{ userAgent: LINUX, userAgentData: { platform: "macOS" } }, "mac"],
    [{ userAgent: MAC, userAgentData: { platform: "Windows" } }, "windows"],
    [{ userAgent: WINDOWS, userAgentData: { platform: "Android" } }, "other"],
    [{ userAgent: MAC, userAgentData: { platform: "Chrome OS" } }, "other"],
    // Chromium reports "" when the User-Agent was overridden without hints: the string decides.
    [{ userAgent: WINDOWS, userAgentData: { platform: "" } }, "windows"],
    [{ userAgent: MAC, userAgentData: {} }, "mac"],
  ])("%j → %s", (nav, expected) => {
    expect(browserPlatform(nav)).toBe(expected);
  });

  it("agrees with detectPlatform for the same hint and User-Agent", () => {
    const hints = ["macOS", "Windows", "Linux", "Android", "iOS", "Chrome OS", ""];
    const agents = [MAC, WINDOWS, LINUX, IPHONE, IPAD, ANDROID, "", "curl/8.0"];
    fc.assert(
      fc.property(fc.option(fc.constantFrom(...hints)), fc.constantFrom(...agents), (hint, ua) => {
        const headers = new Headers({ "user-agent": ua });
        if (hint !== null) headers.set("sec-ch-ua-platform", `"${hint}"`);
        const nav =
          hint === null ? { userAgent: ua } : { userAgent: ua, userAgentData: { platform: hint } };
        expect(browserPlatform(nav)).toBe(detectPlatform(headers));
      }),
    );
  });
});
