/**
 * npm run test:quick [-- --base <ref>] [-- --list]: the inner loop, under two minutes on the
 * 2-core machine (issue 55). It runs, in one `vitest run`:
 *
 * - the quick tests: every test file outside tests/integration/ that does not start a site
 *   (scripts/lib/quick-tests.ts): unit, route-stub, component and database tests. They need no
 *   build. Every one runs, whatever changed, so a changed module's own tests always run.
 * - the test files changed since <ref> (default main): committed on the branch since it left
 *   <ref>, staged, unstaged and untracked. A changed slow one (under tests/integration/, or one
 *   that starts a site) drives the production build, so when the build is missing or older than
 *   its sources this runs `npm run build` first, and says why: a test run on a stale build would
 *   test yesterday's code. That build (about a minute) and the slow file are on top of the two
 *   minutes.
 *
 * Not run: slow tests that only import a changed module (every integration test reaches the app
 * through tests/support/server.ts, so one changed app module would bring in most of the suite).
 * They are counted at the end; `npm test` runs them.
 *
 * Not `vitest run --changed main`: that runs only the tests a change reaches (not the quick tests
 * beside them), and a changed package.json or vite.config.ts makes it run every test file,
 * integration tests included.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  changedFiles,
  changesEverything,
  filterStrays,
  ROOT,
  selectTests,
  staleBuild,
  testFiles,
} from "./lib/quick-tests";
import { runMain } from "./lib/run-main";

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: "inherit", env });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { base: { type: "string", default: "main" }, list: { type: "boolean" } },
  });
  const started = Date.now();
  const changed = changedFiles(values.base);
  const all = testFiles();
  const selection = selectTests(all, changed);
  const strays = filterStrays(all, selection.files);
  if (strays.length > 0) {
    // A path inside another would make Vitest run a file nobody chose (perhaps a slow one).
    throw new Error(`test paths that contain a chosen one: ${strays.join(", ")}`);
  }

  const quick = selection.files.length - selection.slow.length;
  console.log(
    `test:quick: ${quick} quick test files, ${selection.slow.length} changed slow ones ` +
      `(${changed.length} files changed since ${values.base})`,
  );
  for (const file of selection.slow) console.log(`  + ${file}`);
  const everything = changesEverything(changed);
  if (everything.length > 0) {
    console.log(`  changed, can touch any test: ${everything.join(", ")} (npm test checks all)`);
  }
  if (values.list) {
    for (const file of selection.files) console.log(file);
    return 0;
  }

  if (selection.slow.length > 0) {
    const stale = staleBuild();
    if (stale) {
      console.log(`test:quick: building first (the changed slow tests need it): ${stale}`);
      const built = await run("npm", ["run", "-s", "build"]);
      if (built !== 0) return built;
    }
  }
  // No site to start: the global setup's started-site template (a server start) would be unused.
  const env =
    selection.slow.length > 0 ? process.env : { ...process.env, PINOUT_TEST_NO_SITES: "1" };
  const code = await run(
    path.join(ROOT, "node_modules", ".bin", "vitest"),
    ["run", ...selection.files],
    env,
  );

  if (selection.reachedNotRun.length > 0) {
    console.log(
      `test:quick: not run: ${selection.reachedNotRun.length} slow test files that import a ` +
        "changed file (npm test runs them)",
    );
  }
  console.log(`test:quick: ${Math.round((Date.now() - started) / 1000)} s`);
  return code;
}

runMain(main);
