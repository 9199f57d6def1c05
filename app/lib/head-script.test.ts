import { describe, expect, it } from "vitest";
import { HEAD_SCRIPT, POINTER_GLOBAL } from "./head-script";

/** Runs the head script against a fake document and window. */
function run(cookie: string) {
  const attributes: string[] = [];
  const listeners = new Map<string, (event: { clientX: number; clientY: number }) => void>();
  const window: Record<string, unknown> = {
    addEventListener: (
      name: string,
      listener: (event: { clientX: number; clientY: number }) => void,
    ) => listeners.set(name, listener),
  };
  const document = {
    cookie,
    documentElement: { setAttribute: (name: string) => attributes.push(name) },
  };
  new Function("document", "window", HEAD_SCRIPT)(document, window);
  return { attributes, listeners, window };
}

describe("the head script", () => {
  it("hides the banner for a choice in the cookie, and only then", () => {
    expect(run("consent=granted").attributes).toEqual(["data-consent-chosen"]);
    expect(run("a=1; consent=denied; b=2").attributes).toEqual(["data-consent-chosen"]);
    expect(run("").attributes).toEqual([]);
    expect(run("consent=maybe").attributes).toEqual([]);
    expect(run("noconsent=granted").attributes).toEqual([]);
    expect(run("consent=grantedx").attributes).toEqual([]);
  });

  it("notes where the pointer is, from the start", () => {
    const { listeners, window } = run("");
    listeners.get("pointermove")?.({ clientX: 12, clientY: 34 });
    expect(window[POINTER_GLOBAL]).toEqual({ x: 12, y: 34 });
    listeners.get("pointerdown")?.({ clientX: 5, clientY: 6 });
    expect(window[POINTER_GLOBAL]).toEqual({ x: 5, y: 6 });
  });
});
