import { describe, expect, it } from "vitest";
import type { ReleaseAsset } from "../../db/schema";
import { selectRelease, type ReleaseWithAssets } from "./select";

function release(version: string, overrides: Partial<ReleaseWithAssets> = {}): ReleaseWithAssets {
  const asset = { platform: "mac", kind: "installer" } as ReleaseAsset;
  return {
    id: version,
    version,
    channel: "stable",
    notes: "",
    notesTranslations: {},
    status: "published",
    rolloutPercent: 100,
    paused: false,
    critical: false,
    informational: false,
    minimumAutoupdateVersion: null,
    minimumSystemVersion: null,
    createdAt: new Date(),
    publishedAt: new Date(),
    assets: [asset],
    ...overrides,
  };
}

const usable = (asset: ReleaseAsset) => asset.platform === "mac";

describe("selectRelease", () => {
  it("offers the newest by semver, not by date or insertion order", () => {
    const picked = selectRelease([release("1.9.0"), release("1.10.0"), release("1.10.0-beta.1")], {
      channel: "stable",
      usable,
      clientId: "a",
    });
    expect(picked?.release.version).toBe("1.10.0");
  });

  it("keeps betas to the beta channel, which also gets stable releases", () => {
    const list = [release("2.0.0-beta.1", { channel: "beta" }), release("1.0.0")];
    expect(selectRelease(list, { channel: "stable", usable, clientId: "a" })?.release.version).toBe(
      "1.0.0",
    );
    expect(selectRelease(list, { channel: "beta", usable, clientId: "a" })?.release.version).toBe(
      "2.0.0-beta.1",
    );
  });

  it("falls back to the previous release when the newest is paused, pulled, at 0 % or has no file", () => {
    for (const overrides of [
      { paused: true },
      { status: "pulled" as const },
      { status: "draft" as const },
      { rolloutPercent: 0 },
      { assets: [{ platform: "windows", kind: "installer" } as ReleaseAsset] },
    ]) {
      const picked = selectRelease([release("2.0.0", overrides), release("1.0.0")], {
        channel: "stable",
        usable,
        clientId: "a",
      });
      expect(picked?.release.version).toBe("1.0.0");
    }
  });

  it("lets electron-updater decide a partial rollout when it sent no id", () => {
    const picked = selectRelease([release("2.0.0", { rolloutPercent: 25 }), release("1.0.0")], {
      channel: "stable",
      usable,
      clientId: null,
      clientDecides: true,
    });
    expect(picked).toMatchObject({ release: { version: "2.0.0" }, stagingPercentage: 25 });
  });
});
