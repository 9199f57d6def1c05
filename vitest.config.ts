import { defineConfig } from "vitest/config";
import { contentPlugin } from "./vite/content-plugin.ts";

export default defineConfig({
  plugins: [contentPlugin()],
  resolve: { tsconfigPaths: true },
  // React's production build runs in the tests (see `env` below), which has no jsxDEV.
  oxc: { jsx: { runtime: "automatic", development: false } },
  define: {
    __BUILD_ID__: JSON.stringify("test-build"),
    __BUILT_AT__: JSON.stringify("1970-01-01T00:00:00.000Z"),
  },
  test: {
    // Unit tests sit beside their code; integration tests drive the built server over HTTP.
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "vite/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/support/**/*.test.ts",
    ],
    globalSetup: ["tests/support/global-setup.ts"],
    reporters: ["default", "./tests/support/time-limit-reporter.ts"],
    // A worker runs file after file in one process (no new process per file): loading Node,
    // Vitest and the packages (React, Better Auth, Drizzle, PGlite) again for each of ~150 files
    // was over a third of the unit tests' CPU time. Each file still gets its own copy of the
    // app's modules and an environment without the previous file's stubs (fresh-modules.ts).
    isolate: false,
    setupFiles: ["tests/support/fresh-modules.ts"],
    // Loaded by Node, not transformed: it imports the server bundle once per in-process site.
    server: { deps: { external: [/tests\/support\/native-import\.mjs$/] } },
    // At least three times the longest test's usual time (about 25 s; the fuzz and footprint tests
    // set their own). The second reporter lists any test that took over a third of its limit.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // Integration files each start servers and mostly wait on them (the two cores averaged about
    // 120 % busy with two files at a time), so three run at once.
    maxWorkers: 3,
    // The in-process sites render with React's production build, as `node server.js` does, and
    // React is loaded once per worker: every file gets production, so none mixes the two builds.
    env: { LOG_LEVEL: "silent", NODE_ENV: "production" },
  },
});
