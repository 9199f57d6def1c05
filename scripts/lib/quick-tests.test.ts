import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  changedFiles,
  filterStrays,
  importGraph,
  isQuick,
  resolveImport,
  selectTests,
  SITE_STARTER,
} from "./quick-tests";

/**
 * A module's text importing `specifiers`. Built at run time so this file's own text holds no
 * import of them: the real graph reads it too (the test of this module must stay quick).
 */
function importing(...specifiers: string[]): string {
  return specifiers.map((specifier) => `import {} from "${specifier}";`).join("\n");
}

/** An import graph over files held in memory (repository-relative path → text). */
function graphOf(files: Record<string, string>) {
  return importGraph(
    (file) => files[file] ?? "",
    (file) => file in files,
  );
}

const SUPPORT: Record<string, string> = {
  [SITE_STARTER]: importing("./site"),
  "tests/support/site.ts": `export function startSiteInProcess() {}`,
  "tests/support/auth.ts": importing("./engines", "./server"),
  // A re-export is an import too.
  "tests/support/pages.ts": ["export * from", `"./auth.ts";`].join(" "),
  "tests/support/dom.ts": `export const dom = 1;`,
  "tests/support/engines.ts": `export const engines = [];`,
  "app/lib/money.ts": `export const rupees = 1;`,
  "app/lib/uses-money.ts": importing("./money"),
};

describe("the quick tests", () => {
  const files = {
    ...SUPPORT,
    "tests/integration/plain.test.ts": `import { it } from "vitest";`,
    "app/lib/money.test.ts": importing("./money", "~/lib/uses-money", "../../tests/support/dom"),
    "server/starts.test.ts": importing("../tests/support/server"),
    "app/routes/signs-up.test.tsx": importing("../../tests/support/pages"),
    "scripts/lib/dynamic.test.ts": ["await import(", `"../../tests/support/server.ts")`].join(""),
  };
  const graph = graphOf(files);

  it("leave out every file under tests/integration, even one that starts no site", () => {
    expect(isQuick("tests/integration/plain.test.ts", graph)).toBe(false);
  });

  it("leave out a file that imports the site starter, directly, dynamically or through support", () => {
    expect(isQuick("server/starts.test.ts", graph)).toBe(false);
    expect(isQuick("scripts/lib/dynamic.test.ts", graph)).toBe(false);
    // pages.ts re-exports auth.ts, which imports server.ts.
    expect(isQuick("app/routes/signs-up.test.tsx", graph)).toBe(false);
  });

  it("take a unit test that imports the app and support modules that start nothing", () => {
    expect(isQuick("app/lib/money.test.ts", graph)).toBe(true);
  });

  it("are chosen with the changed test files, and slow files reaching a change are named", () => {
    const all = Object.keys(files).filter((file) => file.includes(".test."));
    const selection = selectTests(all, ["server/starts.test.ts", "tests/support/dom.ts"], graph);
    expect(selection).toEqual({
      files: ["app/lib/money.test.ts", "server/starts.test.ts"],
      slow: ["server/starts.test.ts"],
      reachedNotRun: [],
    });
    const reached = selectTests(all, ["tests/support/auth.ts"], graph);
    expect(reached.slow).toEqual([]);
    expect(reached.reachedNotRun).toEqual(["app/routes/signs-up.test.tsx"]);
  });
});

describe("resolveImport", () => {
  const exists = (file: string) => file in SUPPORT;
  it("follows relative paths and the ~/ alias, not packages", () => {
    expect(resolveImport("app/lib/x.test.ts", "./money", exists)).toBe("app/lib/money.ts");
    expect(resolveImport("tests/support/a.ts", "~/lib/money", exists)).toBe("app/lib/money.ts");
    expect(resolveImport("app/lib/x.test.ts", "vitest", exists)).toBeNull();
  });
});

describe("the repository's own files", () => {
  it("class this module's test as quick and every integration test as slow", () => {
    const graph = importGraph();
    expect(isQuick("scripts/lib/quick-tests.test.ts", graph)).toBe(true);
    expect(isQuick("tests/integration/site.test.ts", graph)).toBe(false);
  });

  it("give Vitest paths no other test path contains (it takes them as filters)", () => {
    expect(filterStrays(["a/b.test.ts", "x/a/b.test.ts"], ["a/b.test.ts"])).toEqual([
      "x/a/b.test.ts",
    ]);
  });
});

describe("changedFiles", () => {
  let repo = "";
  afterEach(() => {
    if (repo) fs.rmSync(repo, { recursive: true, force: true });
  });

  it("finds what was committed since the base, staged, changed and untracked, not what was deleted", () => {
    repo = fs.mkdtempSync(path.join(os.tmpdir(), "quick-tests-"));
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: repo,
        stdio: "pipe",
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: "t",
          GIT_AUTHOR_EMAIL: "t@example.com",
          GIT_COMMITTER_NAME: "t",
          GIT_COMMITTER_EMAIL: "t@example.com",
        },
      });
    const write = (file: string, text = file) => {
      fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
      fs.writeFileSync(path.join(repo, file), text);
    };
    git("init", "-q", "-b", "main");
    for (const file of ["same.ts", "edited.ts", "staged.ts", "gone.ts", "ignored.ts"]) write(file);
    write(".gitignore", "ignored.ts\n");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    git("checkout", "-q", "-b", "feature");
    write("committed.ts");
    git("add", "committed.ts");
    git("commit", "-q", "-m", "on the branch");
    write("staged.ts", "changed");
    git("add", "staged.ts");
    write("edited.ts", "changed");
    write("new/untracked.test.ts");
    write("ignored.ts", "changed");
    fs.rmSync(path.join(repo, "gone.ts"));
    // A change on main after the branch left it is not the branch's.
    git("checkout", "-q", "main");
    write("on-main.ts");
    git("add", "on-main.ts");
    git("commit", "-q", "-m", "main moves on");
    git("checkout", "-q", "feature");
    write("staged.ts", "changed");
    git("add", "staged.ts");

    expect(changedFiles("main", repo)).toEqual([
      "committed.ts",
      "edited.ts",
      "new/untracked.test.ts",
      "staged.ts",
    ]);
    expect(() => changedFiles("no-such-branch", repo)).toThrow(/no branch or commit/);
  });
});
