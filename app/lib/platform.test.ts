import { describe, expect, it } from "vitest";
import { detectPlatform } from "./platform";

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
