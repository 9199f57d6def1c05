export type Platform = "mac" | "windows";
export type DetectedPlatform = Platform | "other";

export const PLATFORMS: Record<
  Platform,
  { label: string; extension: "dmg" | "exe"; requirements: string }
> = {
  mac: {
    label: "macOS",
    extension: "dmg",
    requirements: "macOS 12 Monterey or later, Apple silicon or Intel",
  },
  windows: {
    label: "Windows",
    extension: "exe",
    requirements: "Windows 10 (64-bit) or Windows 11",
  },
};

export function isPlatform(value: string | undefined): value is Platform {
  return value === "mac" || value === "windows";
}

/**
 * One set of rules for the server (request headers) and the browser (navigator): a
 * User-Agent Client Hints platform ("macOS", "Windows", …) wins over the User-Agent string.
 * Phones, tablets and Linux are "other".
 */
export function classifyPlatform(
  hint: string | null | undefined,
  userAgent: string,
): DetectedPlatform {
  const platform = hint?.replace(/"/g, "").trim().toLowerCase();
  if (platform) {
    if (platform === "macos") return "mac";
    if (platform === "windows") return "windows";
    return "other";
  }
  if (/iPhone|iPad|iPod|Android/i.test(userAgent)) return "other";
  if (/Macintosh|Mac OS X/i.test(userAgent)) return "mac";
  if (/Windows NT/i.test(userAgent)) return "windows";
  return "other";
}

/** The visitor's operating system from the request (Chromium sends Sec-CH-UA-Platform by default). */
export function detectPlatform(headers: Headers): DetectedPlatform {
  return classifyPlatform(headers.get("sec-ch-ua-platform"), headers.get("user-agent") ?? "");
}

/** What `browserPlatform` reads: `userAgentData` is Chromium-only, so not in the DOM types. */
export interface NavigatorLike {
  userAgent: string;
  userAgentData?: { platform?: string };
}

/**
 * The same answer in the browser, for pages served as identical bytes to everyone (the server
 * cannot tailor them). Call it only where `navigator` exists.
 */
export function browserPlatform(
  nav: NavigatorLike = navigator as Navigator & NavigatorLike,
): DetectedPlatform {
  return classifyPlatform(nav.userAgentData?.platform, nav.userAgent);
}
