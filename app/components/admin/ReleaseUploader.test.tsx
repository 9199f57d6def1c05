import { describe, expect, it } from "vitest";
import { ACCEPTED_SUFFIXES } from "~/.server/releases/files";
import { acceptAttribute } from "./ReleaseUploader";

describe("acceptAttribute", () => {
  it("offers every accepted file as an extension the picker understands, once each", () => {
    const accept = acceptAttribute([...ACCEPTED_SUFFIXES, ".sig"]).split(",");
    expect(accept.every((token) => /^\.[a-z0-9.]+$/.test(token))).toBe(true);
    expect(accept).toEqual(expect.arrayContaining([".nupkg", ".delta", ".dmg", ".exe", ".sig"]));
    expect(new Set(accept).size).toBe(accept.length);
  });
});
