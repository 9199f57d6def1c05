import { defineConfig } from "vitest/config";
import { contentPlugin } from "./vite/content-plugin";

export default defineConfig({
  plugins: [contentPlugin()],
  resolve: { tsconfigPaths: true },
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
    ],
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Integration files each start servers and mostly wait on them (the two cores averaged about
    // 120 % busy with two files at a time), so three run at once.
    maxWorkers: 3,
    env: { LOG_LEVEL: "silent" },
  },
});
