/**
 * What `npm run test:quick` runs (scripts/test-quick.ts): the quick tests, and the test files
 * changed since the base branch.
 *
 * Quick: every test file outside tests/integration/ that does not start a site. Those sit beside
 * their code (unit, route-stub, component and database tests, the last on PGlite and PostgreSQL)
 * and need no build. A site is started through tests/support/server.ts (startServer and its
 * kin; the helpers in tests/support that sign up or pay import it), so a test file whose imports
 * reach it needs the build and is slow wherever it lives.
 *
 * The imports are read with a regular expression, not a parser: a false match (an import written
 * in a comment) can only make a quick file look slow, never the other way round.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

const INTEGRATION = "tests/integration/";
/** The module that starts sites (in-process or as processes). */
export const SITE_STARTER = "tests/support/server.ts";

/** Every module `source` imports (static, dynamic, side-effect and re-exports), as written. */
export function importSpecifiers(source: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
  for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/**
 * The repository-relative file `specifier` (imported by `from`) names, or null for a package or
 * a virtual module. Relative paths and the `~/` alias of tsconfig.json (app/) are followed.
 */
export function resolveImport(
  from: string,
  specifier: string,
  exists: (file: string) => boolean,
): string | null {
  const bare = specifier.replace(/\?.*$/, "");
  let base: string;
  if (bare.startsWith("~/")) base = `app/${bare.slice(2)}`;
  else if (bare.startsWith(".")) base = path.posix.join(path.posix.dirname(from), bare);
  else return null;
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    base.replace(/\.js$/, ".ts"),
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  return candidates.find((file) => /\.(ts|tsx|js|mjs)$/.test(file) && exists(file)) ?? null;
}

export interface ImportGraph {
  /** True when `file` imports, directly or through other modules of the repository, a target. */
  reaches(file: string, isTarget: (file: string) => boolean): boolean;
}

/** The repository's import graph, each file read once; `read` and `exists` take relative paths. */
export function importGraph(
  read: (file: string) => string = (name) => fs.readFileSync(path.join(ROOT, name), "utf8"),
  exists: (file: string) => boolean = (name) => fs.existsSync(path.join(ROOT, name)),
): ImportGraph {
  const imports = new Map<string, string[]>();
  const importsOf = (file: string) => {
    let found = imports.get(file);
    if (!found) {
      found = importSpecifiers(read(file))
        .map((specifier) => resolveImport(file, specifier, exists))
        .filter((next): next is string => next !== null);
      imports.set(file, found);
    }
    return found;
  };
  return {
    reaches(file, isTarget) {
      const seen = new Set([file]);
      const queue = [...importsOf(file)];
      while (queue.length > 0) {
        const current = queue.pop()!;
        if (seen.has(current)) continue;
        seen.add(current);
        if (isTarget(current)) return true;
        queue.push(...importsOf(current));
      }
      return false;
    },
  };
}

/** True when the test file `file` (repository-relative) reaches the module that starts sites. */
export function startsASite(file: string, graph: ImportGraph = importGraph()): boolean {
  return graph.reaches(file, (module) => module === SITE_STARTER);
}

/** Whether a test file (repository-relative) is one of the quick tests. */
export function isQuick(file: string, graph: ImportGraph = importGraph()): boolean {
  return !file.startsWith(INTEGRATION) && !startsASite(file, graph);
}

function git(root: string, ...args: string[]): string[] {
  return execFileSync("git", args, {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  })
    .split("\n")
    .filter((line) => line !== "");
}

/**
 * The files changed since `base`, as `vitest --changed <base>` counts them: committed on this
 * branch since it left `base`, staged, unstaged and untracked (not ignored). Repository-relative,
 * each once, sorted; deleted files (and links to folders, such as a worktree's node_modules) left
 * out.
 */
export function changedFiles(base: string, root = ROOT): string[] {
  try {
    git(root, "rev-parse", "--verify", "--quiet", `${base}^{commit}`);
  } catch {
    throw new Error(`no branch or commit "${base}" to compare with (--base <ref>)`);
  }
  const files = [
    ...git(root, "diff", "--name-only", `${base}...HEAD`),
    ...git(root, "diff", "--name-only", "--cached"),
    ...git(root, "ls-files", "--others", "--modified", "--exclude-standard"),
  ];
  return [...new Set(files)]
    .filter((file) => fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile())
    .sort();
}

/**
 * Every test file git knows (tracked, or untracked and not ignored), repository-relative, sorted.
 * Vitest's `include` (vitest.config.ts) has the last word: it covers every such file today.
 */
export function testFiles(root = ROOT): string[] {
  return git(
    root,
    "ls-files",
    "--cached",
    "--others",
    "--exclude-standard",
    "*.test.ts",
    "*.test.tsx",
  )
    .filter((file) => fs.existsSync(path.join(root, file)))
    .sort();
}

/**
 * Changed files that can change any test's result without being imported by it (Vitest's
 * configuration, its setup, the installed packages): the quick run cannot tell which tests they
 * touch, so it says so.
 */
export function changesEverything(changed: readonly string[]): string[] {
  return changed.filter(
    (file) =>
      /^(package(-lock)?\.json|vitest\.config\.ts|vite\.config\.ts|tsconfig\.json)$/.test(file) ||
      file === "tests/support/global-setup.ts" ||
      file === "tests/support/fresh-modules.ts",
  );
}

export interface Selection {
  /** Test files to run, repository-relative, sorted. */
  files: string[];
  /** Of those, the slow ones (they need the build): there because they changed. */
  slow: string[];
  /** Slow test files left out whose imports reach a changed file. */
  reachedNotRun: string[];
}

/**
 * The quick test files, the changed test files, and (not run, to be named) the slow test files
 * that import a changed module.
 */
export function selectTests(
  all: readonly string[],
  changed: readonly string[],
  graph: ImportGraph = importGraph(),
): Selection {
  const touched = new Set(changed);
  const selection: Selection = { files: [], slow: [], reachedNotRun: [] };
  for (const file of [...all].sort()) {
    const quick = isQuick(file, graph);
    if (quick || touched.has(file)) selection.files.push(file);
    if (!quick && touched.has(file)) selection.slow.push(file);
    if (!quick && !touched.has(file) && graph.reaches(file, (module) => touched.has(module)))
      selection.reachedNotRun.push(file);
  }
  return selection;
}

/**
 * Vitest takes file arguments as filters: a test file runs when its path contains one. The files
 * that `selected` would run besides themselves (none while no test path holds another's).
 */
export function filterStrays(all: readonly string[], selected: readonly string[]): string[] {
  const chosen = new Set(selected);
  return all.filter(
    (file) =>
      !chosen.has(file) &&
      selected.some((filter) => file.toLowerCase().includes(filter.toLowerCase())),
  );
}

/** The folders and files the production build is made from (vite.config.ts and what it loads). */
const BUILD_INPUTS = [
  "app",
  "server",
  "vite",
  "content",
  "public",
  "drizzle",
  "vite.config.ts",
  "react-router.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

/** Tests are not in the build: changing one does not make it stale. */
const NOT_BUILT = /\.test\.tsx?$/;

/**
 * Why the build cannot be used by tests of the code as it is now, or null when it can: missing,
 * or older than a file it is made from (the newest such file is named). By modification time, so
 * a checkout that touches files asks for a build it may not need: a wasted build, never a stale
 * one used.
 */
export function staleBuild(root = ROOT): string | null {
  const entry = path.join(root, "build", "server", "index.js");
  if (!fs.existsSync(entry)) return "there is no build (build/server/index.js)";
  let newest = { file: "", mtime: fs.statSync(entry).mtimeMs };
  const visit = (file: string) => {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(path.join(root, file))) visit(path.posix.join(file, name));
    } else if (!NOT_BUILT.test(file) && stat.mtimeMs > newest.mtime) {
      newest = { file, mtime: stat.mtimeMs };
    }
  };
  for (const input of BUILD_INPUTS) visit(input);
  return newest.file ? `the build is older than ${newest.file}` : null;
}
