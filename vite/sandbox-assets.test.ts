import vm from "node:vm";
import { createServer } from "vite";
import { describe, expect, it } from "vitest";
import * as fromSource from "../server/razorpay-sandbox/browser-assets";
import { SANDBOX_ASSETS_MODULE, sandboxAssetsPlugin } from "./sandbox-assets";

describe("the sandbox assets plugin", () => {
  it("serves the module the sandbox imports as compiled text, the same as Vitest compiles", async () => {
    const server = await createServer({
      configFile: false,
      logLevel: "silent",
      plugins: [sandboxAssetsPlugin()],
      server: { middlewareMode: true, ws: false },
      appType: "custom",
    });
    try {
      const id = `/${SANDBOX_ASSETS_MODULE}`;
      const code = (await server.environments.ssr.transformRequest(id))?.code ?? "";
      // The module's own body (which compiles with esbuild) is not what the build ships.
      expect(code).not.toMatch(/esbuild|compileSandboxAssets/);
      const fromPlugin: Record<string, unknown> = await server.ssrLoadModule(id);
      expect(Object.keys(fromPlugin).sort()).toEqual(Object.keys(fromSource).sort());
      for (const [name, text] of Object.entries(fromSource)) expect(fromPlugin[name]).toBe(text);
    } finally {
      await server.close();
    }
  });

  it("compiles each script to one classic script with no imports left", () => {
    for (const script of [fromSource.CHECKOUT_JS, fromSource.HOSTED_JS]) {
      expect(() => new vm.Script(script)).not.toThrow();
      expect(script).not.toMatch(/^\s*(import|export)\b/m);
      expect(script).toMatch(/^\/\* Razorpay sandbox \(test mode only\)/);
    }
    expect(fromSource.CHECKOUT_CSS).toContain(".rzp-sbx-dialog");
  });
});
