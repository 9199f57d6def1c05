import type { Platform } from "~/lib/platform";

/**
 * Architectures as we name them on release files, and how each updater names them. `universal`
 * (a fat macOS build, or a Windows build for every arch) serves every arch of its platform.
 */
export const ARCHES = ["universal", "x64", "arm64", "ia32"] as const;
export type Arch = (typeof ARCHES)[number];

export function isArch(value: string): value is Arch {
  return (ARCHES as readonly string[]).includes(value);
}

/** Tauri's `{{target}}` values we build for, and our platform name for each. */
const TAURI_TARGETS: Record<string, Platform> = { darwin: "mac", windows: "windows" };

/** Tauri's `{{arch}}` values and ours. */
const TAURI_ARCHES: Record<string, Exclude<Arch, "universal">> = {
  x86_64: "x64",
  aarch64: "arm64",
  i686: "ia32",
};

export function platformOfTauriTarget(target: string): Platform | null {
  return Object.hasOwn(TAURI_TARGETS, target) ? (TAURI_TARGETS[target] ?? null) : null;
}

export function archOfTauriArch(arch: string): Exclude<Arch, "universal"> | null {
  return Object.hasOwn(TAURI_ARCHES, arch) ? (TAURI_ARCHES[arch] ?? null) : null;
}

/** The `"<os>-<arch>"` keys of Tauri's static JSON that a file of this platform and arch serves. */
export function tauriPlatformKeys(platform: Platform, arch: Arch): string[] {
  const os = platform === "mac" ? "darwin" : "windows";
  const arches =
    arch === "universal"
      ? platform === "mac"
        ? ["aarch64", "x86_64"]
        : ["x86_64"]
      : Object.entries(TAURI_ARCHES)
          .filter(([, ours]) => ours === arch)
          .map(([theirs]) => theirs);
  return arches.map((theirs) => `${os}-${theirs}`);
}

/** Whether a file built for `fileArch` runs on a machine of `wanted` arch. */
export function archServes(fileArch: string, wanted: string): boolean {
  return fileArch === "universal" || fileArch === wanted;
}

/** The arch a file name says it is built for (Pinout-1.2.0-arm64.dmg), else universal. */
export function archFromFileName(fileName: string): Arch {
  const name = fileName.toLowerCase();
  if (/(^|[^a-z0-9])(arm64|aarch64)([^a-z0-9]|$)/.test(name)) return "arm64";
  if (/(^|[^a-z0-9])(x64|x86_64|amd64)([^a-z0-9]|$)/.test(name)) return "x64";
  if (/(^|[^a-z0-9])(ia32|i686|x86)([^a-z0-9]|$)/.test(name)) return "ia32";
  return "universal";
}
