/**
 * The preload that drops React Router's `envFile` deprecation (issue 55): it drops that message
 * only, and it is still needed — once React Router stops passing `envFile: false` to Vite, the
 * second test fails, saying to remove the preload and its `--import` in package.json.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PRELOAD = path.resolve(import.meta.dirname, "quiet-envfile-warning.mjs");

describe("the envFile warning preload", () => {
  it("drops the deprecation, coloured or not, and prints every other warning", () => {
    const script = [
      'console.warn("The `envFile` option is deprecated, please use `envDir: false` instead.");',
      'console.warn("\\u001b[33mThe `envFile` option is deprecated, please use `envDir: false` instead.\\u001b[39m");',
      'console.warn("another warning", 42);',
    ].join("\n");
    const run = (preload: string[]) =>
      spawnSync(process.execPath, [...preload, "-e", script], { encoding: "utf8" }).stderr;
    // Without the preload both deprecations are printed: the script is a fair stand-in.
    expect(run([]).match(/envFile/g)).toHaveLength(2);
    const printed = run(["--import", PRELOAD]);
    expect(printed).not.toContain("envFile");
    expect(printed).toContain("another warning 42");
  });

  it("is preloaded by every command that starts React Router's Vite", () => {
    const { scripts } = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, "..", "..", "package.json"), "utf8"),
    ) as { scripts: Record<string, string> };
    for (const name of ["build", "typecheck", "dev"])
      expect(scripts[name], name).toContain("--import ./scripts/lib/quiet-envfile-warning.mjs");
    // A bare `react-router` command would start Vite without it.
    for (const [name, command] of Object.entries(scripts))
      expect(command, name).not.toMatch(/(^|&& )react-router /);
  });

  it("is still needed: React Router still starts Vite with envFile: false", () => {
    const require = createRequire(import.meta.url);
    const vitePlugin = path.join(
      path.dirname(require.resolve("@react-router/dev/package.json")),
      "dist",
      "vite.js",
    );
    expect(
      fs.readFileSync(vitePlugin, "utf8"),
      "React Router no longer passes envFile: false; remove scripts/lib/quiet-envfile-warning.mjs and its --import in package.json",
    ).toContain("envFile: false");
  });
});
