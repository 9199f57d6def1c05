import { randomBytes } from "node:crypto";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { contentPlugin } from "./vite/content-plugin.ts";
import { routeModuleReloadPlugin } from "./vite/route-module-reload.ts";
import { sandboxAssetsPlugin } from "./vite/sandbox-assets.ts";

// React Router builds the client and the server in one process and may evaluate this file more
// than once; keeping the id in process.env gives both bundles the same build id.
process.env.BUILD_ID ??= `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
process.env.BUILT_AT ??= new Date().toISOString();

export default defineConfig(({ isSsrBuild }) => ({
  define: {
    __BUILD_ID__: JSON.stringify(process.env.BUILD_ID),
    __BUILT_AT__: JSON.stringify(process.env.BUILT_AT),
  },
  build: {
    // The custom server's express app is bundled with the routes so that both share one copy of
    // every server module (database handle, logger, request context). One file, no chunks: the
    // in-process test harness imports it once per site (with a query that makes each import a new
    // module instance), and a chunk would be shared between those instances (decision 0036).
    rollupOptions: isSsrBuild
      ? { input: "./server/app.ts", output: { codeSplitting: false } }
      : undefined,
  },
  resolve: { tsconfigPaths: true },
  server: { port: 3000 },
  plugins: [
    tailwindcss(),
    contentPlugin(),
    routeModuleReloadPlugin(),
    sandboxAssetsPlugin(),
    reactRouter(),
  ],
}));
