/**
 * The build's browser files, served by express: `/assets/*` (code and styles Vite fingerprints)
 * and the other files of build/client (icons, robots, social images).
 */
import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
import expressStaticGzip from "express-static-gzip";

/**
 * Vite fingerprints every file under /assets, so a name never changes content: a year, immutable.
 * The brotli and gzip copies written at build time (scripts/compress-assets.ts) are sent as they
 * are; the compression middleware leaves a response that already has an encoding alone. A name
 * that is not there is a 404 at once (`fallthrough: false`): no page lives under /assets.
 */
export function assetFiles(clientDir: string): RequestHandler {
  return expressStaticGzip(path.join(clientDir, "assets"), {
    enableBrotli: true,
    orderPreference: ["br", "gz"],
    index: false,
    serveStatic: { immutable: true, maxAge: "1y", fallthrough: false, index: false },
  });
}

/**
 * The build's other static files, served only for a path that names one of them (or a folder of
 * them, which `serve-static` redirects): every other request would cost a failed `stat` of the
 * disk before it reaches React Router, about 7 % of the CPU of an API call (decision 0032). The
 * build does not change while the server runs, so its files are listed once. The path is looked
 * up as `send` resolves it: decoded, repeated slashes folded.
 */
export function otherBuildFiles(clientDir: string): RequestHandler {
  const serveStatic = express.static(clientDir, { maxAge: "1h", index: false });
  const present = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const name = `${prefix}/${entry.name}`;
      present.add(name);
      if (entry.isDirectory()) walk(path.join(dir, entry.name), name);
    }
  };
  walk(clientDir, "");
  return (req, res, next) => {
    let pathname: string;
    try {
      pathname = path.posix.normalize(decodeURIComponent(req.path));
    } catch {
      return next();
    }
    if (!present.has(pathname)) return next();
    serveStatic(req, res, next);
  };
}
