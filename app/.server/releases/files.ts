import type { AssetKind, Updater } from "../db/schema";
import type { Platform } from "~/lib/platform";

export interface FileRole {
  /** Null: read from the package's own manifest (a Velopack .nupkg says which OS it is for). */
  platform: Platform | null;
  kind: AssetKind;
  updater: Updater | null;
  contentType: string;
}

/**
 * What an uploaded file is, from its name alone: the content type we serve it with is fixed by
 * the extension, never taken from the uploader. Minisign `.sig` files are not stored as files:
 * their contents become the signature of the file they sign.
 */
const RULES: { suffix: string; role: FileRole }[] = [
  // Velopack names its packages {id}-{version}[-{rid}]-full.nupkg and …-delta.nupkg.
  {
    suffix: "-full.nupkg",
    role: { platform: null, kind: "update", updater: "velopack", contentType: "application/zip" },
  },
  {
    suffix: "-delta.nupkg",
    role: { platform: null, kind: "delta", updater: "velopack", contentType: "application/zip" },
  },
  // Sparkle's generate_appcast names a delta {App}{version}-{from version}.delta.
  {
    suffix: ".delta",
    role: {
      platform: "mac",
      kind: "delta",
      updater: "sparkle",
      contentType: "application/octet-stream",
    },
  },
  {
    suffix: ".app.tar.gz",
    role: { platform: "mac", kind: "update", updater: "tauri", contentType: "application/gzip" },
  },
  {
    suffix: ".exe.blockmap",
    role: {
      platform: "windows",
      kind: "blockmap",
      updater: null,
      contentType: "application/octet-stream",
    },
  },
  {
    suffix: ".dmg",
    role: {
      platform: "mac",
      kind: "installer",
      updater: null,
      contentType: "application/x-apple-diskimage",
    },
  },
  {
    suffix: ".zip",
    role: { platform: "mac", kind: "update", updater: "electron", contentType: "application/zip" },
  },
  {
    suffix: ".exe",
    role: {
      platform: "windows",
      kind: "installer",
      updater: null,
      contentType: "application/vnd.microsoft.portable-executable",
    },
  },
  {
    suffix: ".msi",
    role: {
      platform: "windows",
      kind: "update",
      updater: "tauri",
      contentType: "application/x-msi",
    },
  },
];

export const ACCEPTED_SUFFIXES = RULES.map((rule) => rule.suffix);

export function roleOfFile(fileName: string): FileRole | null {
  const name = fileName.toLowerCase();
  return RULES.find((rule) => name.endsWith(rule.suffix))?.role ?? null;
}

/**
 * A file name safe on every disk and in a URL path segment: letters, digits, dot, dash,
 * underscore and plus; no leading dot; at most 200 characters.
 */
export function sanitizeFileName(fileName: string): string | null {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[^\w.+-]/g, "_").replace(/^\.+/, "");
  if (cleaned.length === 0 || cleaned.length > 200) return null;
  return cleaned;
}
