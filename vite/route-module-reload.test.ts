import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { patchRouteModuleReload, ROUTE_MODULE_HOOK } from "./route-module-reload";

const dist = path.resolve("node_modules/react-router/dist/production");

describe("route module reload patch", () => {
  it("routes React Router's own reload through the hook, in the installed version", () => {
    const files = readdirSync(dist).filter((name) => /\.m?js$/.test(name));
    const patched = files
      .map((name) => patchRouteModuleReload(readFileSync(path.join(dist, name), "utf8")))
      .filter((code): code is string => code !== null);
    expect(patched.length).toBeGreaterThan(0);
    for (const code of patched) {
      const catchBlock = code.slice(code.indexOf("Error loading route module"));
      const hook = catchBlock.indexOf(`window.${ROUTE_MODULE_HOOK}(error)`);
      expect(hook).toBeGreaterThan(0);
      expect(hook).toBeLessThan(catchBlock.indexOf("window.location.reload()"));
    }
  });

  it("leaves other modules alone and refuses a changed shape loudly", () => {
    expect(patchRouteModuleReload("export const x = 1;")).toBeNull();
    expect(() =>
      patchRouteModuleReload('console.error("Error loading route module x"); location.assign("/")'),
    ).toThrow(/changed shape/);
  });
});
