/**
 * What the sandbox serves to browsers: checkout.js, hosted.js (compiled from ./browser/*.ts) and
 * checkout.css. The Vite build and `npm run dev` never run this body: vite/sandbox-assets.ts's
 * plugin serves the compiled text in its place. Vitest, which does not load that plugin, compiles
 * here, once, when a test first imports the sandbox (decision 0034).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compileSandboxAssets } from "../../vite/sandbox-assets";

const assets = compileSandboxAssets(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "browser"),
);

export const CHECKOUT_JS: string = assets.checkoutJs;
export const HOSTED_JS: string = assets.hostedJs;
export const CHECKOUT_CSS: string = assets.checkoutCss;
