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
 * The visitor's operating system: User-Agent Client Hints first (Chromium sends
 * Sec-CH-UA-Platform by default), then the User-Agent string. Phones and Linux are "other".
 */
export function detectPlatform(headers: Headers): DetectedPlatform {
  const hint = headers.get("sec-ch-ua-platform")?.replace(/"/g, "").trim().toLowerCase();
  if (hint) {
    if (hint === "macos") return "mac";
    if (hint === "windows") return "windows";
    return "other";
  }
  const ua = headers.get("user-agent") ?? "";
  if (/iPhone|iPad|iPod|Android/i.test(ua)) return "other";
  if (/Macintosh|Mac OS X/i.test(ua)) return "mac";
  if (/Windows NT/i.test(ua)) return "windows";
  return "other";
}
