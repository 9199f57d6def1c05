import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTER_GLOBALS } from "./router-internals";

/** The installed React Router's browser code, as shipped. */
function reactRouterSource(): string {
  const dist = path.resolve("node_modules/react-router/dist/production");
  return fs
    .readdirSync(dist)
    .filter((file) => file.endsWith(".mjs") || file.endsWith(".js"))
    .map((file) => fs.readFileSync(path.join(dist, file), "utf8"))
    .join("\n");
}

describe("React Router's private globals the site reads", () => {
  const source = reactRouterSource();

  it.each(ROUTER_GLOBALS)("%s is still written by the installed React Router", (name) => {
    expect(source).toContain(name);
  });

  it("still names the future flag prefetching follows", () => {
    expect(source).toContain("v8_trailingSlashAwareDataRequests");
  });
});
