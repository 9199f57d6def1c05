import { describe, expect, it } from "vitest";
import { isChunkLoadError, RELOAD_GUARD_WINDOW_MS, shouldReload } from "./chunk-reload";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe("chunk reload guard", () => {
  it("reloads once per path within the window", () => {
    const storage = memoryStorage();
    expect(shouldReload("/pricing", 1_000, storage)).toBe(true);
    expect(shouldReload("/pricing", 1_000 + RELOAD_GUARD_WINDOW_MS - 1, storage)).toBe(false);
    expect(shouldReload("/download", 2_000, storage)).toBe(true);
    expect(shouldReload("/pricing", 1_000 + RELOAD_GUARD_WINDOW_MS, storage)).toBe(true);
    expect(RELOAD_GUARD_WINDOW_MS).toBe(10_000);
  });

  it("recognises the browsers' failed dynamic import messages", () => {
    expect(
      isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js")),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError("error loading dynamically imported module")).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });
});
