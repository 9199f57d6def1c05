import fs from "node:fs";
import path from "node:path";
import { buildSync } from "esbuild";
import { normalizePath, type Plugin } from "vite";

/** The module whose exports are the compiled assets (relative to the Vite root). */
export const SANDBOX_ASSETS_MODULE = "server/razorpay-sandbox/browser-assets.ts";

/** What the Razorpay sandbox serves to browsers, compiled from its `browser/` folder. */
export interface SandboxAssets {
  /** checkout.js, from browser/checkout.ts and its imports. */
  checkoutJs: string;
  /** hosted.js, from browser/hosted-page.ts and its imports. */
  hostedJs: string;
  /** checkout.css, as written. */
  checkoutCss: string;
}

/**
 * One classic script (an IIFE, no imports left) from a browser module. ES2019 keeps the script
 * as widely runnable as the hand-written one was; browser/tsconfig.json checks the same floor for
 * library calls, which esbuild does not lower.
 */
function compileScript(browserDir: string, entry: string, name: string): string {
  const result = buildSync({
    entryPoints: [path.join(browserDir, entry)],
    // Paths in the output's comments are relative to this: the same text from any working folder.
    absWorkingDir: browserDir,
    tsconfig: path.join(browserDir, "tsconfig.json"),
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2019",
    legalComments: "none",
    logLevel: "silent",
    banner: {
      js: `/* Razorpay sandbox (test mode only): ${name}, compiled from browser/${entry}. */`,
    },
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error(`esbuild wrote nothing for ${entry}`);
  return file.text;
}

export function compileSandboxAssets(browserDir: string): SandboxAssets {
  return {
    checkoutJs: compileScript(browserDir, "checkout.ts", "checkout.js"),
    hostedJs: compileScript(browserDir, "hosted-page.ts", "hosted.js"),
    checkoutCss: fs.readFileSync(path.join(browserDir, "checkout.css"), "utf8"),
  };
}

/** The ES module the plugin serves in place of SANDBOX_ASSETS_MODULE (same export names). */
export function sandboxAssetsModuleCode(assets: SandboxAssets): string {
  return [
    `export const CHECKOUT_JS = ${JSON.stringify(assets.checkoutJs)};`,
    `export const HOSTED_JS = ${JSON.stringify(assets.hostedJs)};`,
    `export const CHECKOUT_CSS = ${JSON.stringify(assets.checkoutCss)};`,
    "",
  ].join("\n");
}

/**
 * Compiles the sandbox's browser code when Vite loads SANDBOX_ASSETS_MODULE (the build, and
 * `npm run dev`) and serves the result as that module's text: the server bundle carries the
 * compiled scripts as strings, and neither esbuild nor the TypeScript sources are needed when it
 * runs. A type error is tsc's job (`npm run typecheck`); a syntax error fails the build here.
 */
export function sandboxAssetsPlugin(): Plugin {
  let moduleId = "";
  return {
    name: "pinout:sandbox-assets",
    enforce: "pre",
    configResolved(config) {
      moduleId = normalizePath(path.resolve(config.root, SANDBOX_ASSETS_MODULE));
    },
    load(id) {
      if (normalizePath(id.split("?", 1)[0] ?? "") !== moduleId) return null;
      return sandboxAssetsModuleCode(
        compileSandboxAssets(path.join(path.dirname(moduleId), "browser")),
      );
    },
  };
}
