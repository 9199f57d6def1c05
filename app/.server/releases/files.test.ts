import { describe, expect, it } from "vitest";
import { roleOfFile, sanitizeFileName } from "./files";
import {
  archFromFileName,
  archOfTauriArch,
  platformOfTauriTarget,
  tauriPlatformKeys,
} from "./targets";

describe("release file roles", () => {
  it.each([
    ["Pinout-1.0.0.dmg", "mac", "installer", null],
    ["Pinout-1.0.0-mac.zip", "mac", "update", "electron"],
    ["Pinout.app.tar.gz", "mac", "update", "tauri"],
    ["Pinout-Setup-1.0.0.exe", "windows", "installer", null],
    ["Pinout-Setup-1.0.0.exe.blockmap", "windows", "blockmap", null],
    ["Pinout_1.0.0_x64_en-US.msi", "windows", "update", "tauri"],
  ])("%s is a %s %s file", (name, platform, kind, updater) => {
    expect(roleOfFile(name)).toMatchObject({ platform, kind, updater });
  });

  it("refuses names it does not know and fixes the content type by extension", () => {
    expect(roleOfFile("notes.txt")).toBeNull();
    expect(roleOfFile("evil.html")).toBeNull();
    expect(roleOfFile("Pinout.DMG")?.contentType).toBe("application/x-apple-diskimage");
  });

  it("sanitises file names to one safe path segment", () => {
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("C:\\builds\\Pinout Setup 1.0.exe")).toBe("Pinout_Setup_1.0.exe");
    expect(sanitizeFileName(".hidden.dmg")).toBe("hidden.dmg");
    expect(sanitizeFileName("")).toBeNull();
    expect(sanitizeFileName("a".repeat(201))).toBeNull();
  });
});

describe("targets", () => {
  it("maps Tauri's target and arch names to ours and back", () => {
    expect(platformOfTauriTarget("darwin")).toBe("mac");
    expect(platformOfTauriTarget("linux")).toBeNull();
    expect(platformOfTauriTarget("constructor")).toBeNull();
    expect(archOfTauriArch("aarch64")).toBe("arm64");
    expect(archOfTauriArch("toString")).toBeNull();
    expect(tauriPlatformKeys("mac", "universal")).toEqual(["darwin-aarch64", "darwin-x86_64"]);
    expect(tauriPlatformKeys("windows", "x64")).toEqual(["windows-x86_64"]);
  });

  it("reads the arch from a file name", () => {
    expect(archFromFileName("Pinout-1.0.0-arm64.dmg")).toBe("arm64");
    expect(archFromFileName("Pinout_1.0.0_x64_en-US.msi")).toBe("x64");
    expect(archFromFileName("Pinout_aarch64.app.tar.gz")).toBe("arm64");
    expect(archFromFileName("Pinout-1.0.0.dmg")).toBe("universal");
  });
});
