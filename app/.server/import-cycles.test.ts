/**
 * No import cycle under app/.server (issue 36): a cycle makes a module's exports undefined while
 * another module of the cycle loads, depending on which one is imported first, and is how the
 * billing modules once tangled (checkout → resync → manage → checkout). Static imports only:
 * type-only imports vanish at run time, and a dynamic `import()` is the way to break a cycle
 * on purpose.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const app = path.resolve(__dirname, "..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/")
    ? path.join(app, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

/**
 * Each file's imports of other files under app/.server: static, value-carrying ones; with `all`,
 * type-only and dynamic `import()` ones too, and of every file there (not only `.server` ones).
 */
export function importGraph(
  files: readonly string[],
  { all = false }: { all?: boolean } = {},
): Map<string, string[]> {
  const statement = /^(import|export)\s+(type\s+)?[^;]*?\bfrom\s+"([^"]+)"/gm;
  const dynamic = /\bimport\(\s*"([^"]+)"\s*\)/g;
  return new Map(
    files.map((file) => {
      const source = fs.readFileSync(file, "utf8");
      const specifiers = [
        ...[...source.matchAll(statement)]
          .filter((match) => all || match[2] === undefined)
          .map((match) => match[3] ?? ""),
        ...(all ? [...source.matchAll(dynamic)].map((match) => match[1] ?? "") : []),
      ];
      const targets = specifiers
        .map((specifier) => resolveImport(file, specifier))
        .filter(
          (target): target is string =>
            target !== null && (all ? target.includes("/.server/") : target.includes(".server")),
        );
      return [file, [...new Set(targets)]];
    }),
  );
}

/** The import cycles: strongly connected groups of more than one file, or a file importing itself. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(group);
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

describe("imports under app/.server", () => {
  it("form no cycle", () => {
    const graph = importGraph(sourceFiles(path.join(app, ".server")));
    // The reader sees the whole server: a broken pattern would find nothing and pass.
    expect(graph.size).toBeGreaterThan(150);
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    const cycles = importCycles(graph).map((group) =>
      group.map((file) => path.relative(app, file)).sort(),
    );
    expect(cycles).toEqual([]);
  });

  // Issue 54: not even a type-only or dynamic import closes a circle (one through the audit log's
  // type of a session and the jobs' registry tied the whole server into one).
  it("form no cycle counting type-only and dynamic imports too", () => {
    const graph = importGraph(sourceFiles(path.join(app, ".server")), { all: true });
    expect([...graph.values()].flat().length).toBeGreaterThan(600);
    const cycles = importCycles(graph).map((group) =>
      group.map((file) => path.relative(app, file)).sort(),
    );
    expect(cycles).toEqual([]);
  });

  it("finds a cycle when there is one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
      ["e", ["e"]],
    ]);
    expect(importCycles(graph).map((group) => group.sort())).toEqual([["a", "b", "c"], ["e"]]);
  });
});
