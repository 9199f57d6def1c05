import { describe, expect, it } from "vitest";
import { sparkleDeltaBase } from "../upload-facts.server";
import { velopackArchOf, velopackChannelOf } from "./velopack";

describe("Velopack channels", () => {
  it("maps releases.{os}[-beta].json to a platform and channel, and nothing else", () => {
    expect(velopackChannelOf("releases.win.json")).toEqual({
      platform: "windows",
      channel: "stable",
    });
    expect(velopackChannelOf("releases.osx-beta.json")).toEqual({
      platform: "mac",
      channel: "beta",
    });
    for (const name of ["releases.linux.json", "releases.json", "releases.win.xml", "RELEASES"])
      expect(velopackChannelOf(name), name).toBeNull();
    expect(velopackArchOf("X64")).toBe("x64");
    expect(velopackArchOf("x86")).toBe("ia32");
    expect(velopackArchOf("mips")).toBeNull();
    expect(velopackArchOf(null)).toBeNull();
  });
});

describe("sparkleDeltaBase", () => {
  it("reads the base version after the release's own, pre-releases included", () => {
    expect(sparkleDeltaBase("Pinout2.1.0-2.0.0.delta", "2.1.0")).toBe("2.0.0");
    expect(sparkleDeltaBase("Pinout2.1.0-2.0.0-beta.1.delta", "2.1.0")).toBe("2.0.0-beta.1");
    expect(sparkleDeltaBase("Pinout2.1.0-beta.2-2.0.0.delta", "2.1.0-beta.2")).toBe("2.0.0");
    expect(sparkleDeltaBase("Pinout-2.0.0.delta", "2.1.0")).toBeNull();
    expect(sparkleDeltaBase("Pinout2.1.0-latest.delta", "2.1.0")).toBeNull();
    expect(sparkleDeltaBase("Pinout2.1.0-2.0.0.zip", "2.1.0")).toBeNull();
  });
});
