// Starts the site: `npm start` (production build) or `npm run dev` (Vite, hot reload).
// Everything but process wiring lives in server/app.ts.
import { existsSync } from "node:fs";

process.env.NODE_ENV ??= "production";
const development = process.env.NODE_ENV === "development";

async function load() {
  if (development) {
    const { createServer } = await import("vite");
    const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
    const mod = await vite.ssrLoadModule("./server/app.ts");
    return { mod, options: { vite } };
  }
  const entry = new URL("./build/server/index.js", import.meta.url);
  if (!existsSync(entry)) {
    throw new Error("No production build found: run `npm run build` first.");
  }
  return { mod: await import(entry.href), options: {} };
}

try {
  const { mod, options } = await load();
  const running = await mod.start(options);
  let signals = 0;
  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    // A hard ceiling, whatever happens while closing.
    setTimeout(() => process.exit(1), 5_000).unref();
    running.shutdown(signal).then(
      () => process.exit(0),
      (/** @type {unknown} */ error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
} catch (error) {
  // Start-up failures (bad configuration, database in use) end the process with a plain message.
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
