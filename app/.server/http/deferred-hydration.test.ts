import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deferHydration, HELD_MODULE_ID, RELEASE_SCRIPT } from "./deferred-hydration";
import { inlineScriptHashes } from "./inline-scripts";

// The shape React Router 7 writes: modulepreloads in the head, an inline module script that
// imports the route modules, then the classic scripts that stream the loader data.
const MODULE = `;
import * as route0 from "/assets/root-A.js";
import * as route1 from "/assets/home-B.js";
window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};
import("/assets/entry.client-C.js");`;
const RENDERED =
  "<!DOCTYPE html><html><head>" +
  '<link rel="modulepreload" fetchPriority="low" href="/assets/entry.client-C.js"/>' +
  '<link rel="modulepreload" href="/assets/chunk-D.js"/>' +
  '<link rel="stylesheet" href="/assets/app.css"/></head><body><main>Hello</main>' +
  "<script>window.__reactRouterContext = {};</script>" +
  `<script type="module" async="">${MODULE}</script>` +
  '<script>window.__reactRouterContext.streamController.enqueue("[]");</script></body></html>';

const sha = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;

describe("deferHydration", () => {
  const html = deferHydration(RENDERED);

  it("takes the modulepreloads out of the document and keeps everything else", () => {
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(html).toContain("<main>Hello</main>");
    expect(html).toContain("window.__reactRouterContext = {};");
    expect(html).toContain('streamController.enqueue("[]")');
  });

  it("holds the module script, text unchanged, with the preloads to add in their order", () => {
    const held = new RegExp(
      `<script type="text/x-held-module" id="${HELD_MODULE_ID}" data-preload="([^"]*)">([\\s\\S]*?)</script>`,
    ).exec(html);
    expect(held?.[1]).toBe("/assets/entry.client-C.js /assets/chunk-D.js");
    expect(held?.[2]).toBe(MODULE);
    expect(html).not.toContain('<script type="module"');
    // The release script follows it, before the data stream scripts.
    expect(html.indexOf(RELEASE_SCRIPT)).toBeGreaterThan(html.indexOf(MODULE));
    expect(html.indexOf(RELEASE_SCRIPT)).toBeLessThan(html.indexOf("streamController"));
  });

  it("leaves the CSP hashes able to allow both scripts that will run", () => {
    const hashes = new Set([...inlineScriptHashes(RENDERED), ...inlineScriptHashes(html)]);
    expect(hashes).toContain(sha(MODULE));
    expect(hashes).toContain(sha(RELEASE_SCRIPT));
    // The held copy is inert: the rewritten page alone does not list it.
    expect(inlineScriptHashes(html)).not.toContain(sha(MODULE));
  });

  it("changes nothing on a document without React Router's module script", () => {
    const plain = "<html><head></head><body><p>Not found</p></body></html>";
    expect(deferHydration(plain)).toBe(plain);
  });

  it("keeps $ sequences in the module text literally", () => {
    const rendered = RENDERED.replace(MODULE, () => 'const a = "$&$1$$";');
    expect(deferHydration(rendered)).toContain('const a = "$&$1$$";');
  });
});
