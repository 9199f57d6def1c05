/**
 * Route modules stay under 350 lines (issue 54): a route reads its data through a reader in
 * app/.server/<domain>/ and draws with sections from app/components/<area>/, so the module itself
 * says which URL does what, in one screenful or two. Tests beside the routes do not count.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const MAX_ROUTE_LINES = 350;

const routes = path.resolve(__dirname);

/** Every module under app/routes but the tests, relative to it. */
function routeModules(dir = routes): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeModules(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
      ? [path.relative(routes, file)]
      : [];
  });
}

/** Lines as `wc -l` counts them (a last line without its newline counts too). */
function lineCount(file: string): number {
  const source = fs.readFileSync(path.join(routes, file), "utf8");
  return source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
}

describe("route modules", () => {
  it(`are at most ${MAX_ROUTE_LINES} lines each`, () => {
    const modules = routeModules();
    // The walk found the routes (a wrong folder would pass with nothing to check).
    expect(modules).toContain(path.join("billing", "checkout.tsx"));
    const over = modules
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter((module) => module.lines > MAX_ROUTE_LINES)
      .map((module) => `${module.file}: ${module.lines} lines`);
    expect(over).toEqual([]);
  });
});
