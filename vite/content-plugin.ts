import path from "node:path";
import type { Logger, Plugin, ViteDevServer } from "vite";
import { site } from "../app/config/site";
import { compileContent } from "./content/compile";
import type { ContentBundle } from "./content/types";

export const CONTENT_MODULE = "virtual:content";
export const CONTENT_CSS_MODULE = "virtual:content.css";
// The "\0" prefix tells other plugins these ids are not files; ".css" lets Vite treat the second
// one as a stylesheet (extracted to a file in the build, never an inline <style> in production).
const RESOLVED_CONTENT = `\0${CONTENT_MODULE}`;
const RESOLVED_CSS = `\0${CONTENT_CSS_MODULE}`;

export interface ContentPluginOptions {
  /** The folder with blog/ and legal/; default: content/ under the Vite root. */
  contentDir?: string;
}

/** The ES module `virtual:content` exports. */
export function contentModuleCode(bundle: ContentBundle): string {
  // Everything the server needs; the source files list stays in the plugin.
  return [
    `export const posts = ${JSON.stringify(bundle.posts)};`,
    `export const legalPages = ${JSON.stringify(bundle.legalPages)};`,
    "",
  ].join("\n");
}

/**
 * Compiles content/blog/*.md and content/legal/*.md when the build starts (a content mistake fails
 * the build with the file and field named) and serves the result as `virtual:content`, with the
 * code highlighting styles as `virtual:content.css`. In development an edit, a new file or a
 * deleted one recompiles, invalidates both modules and reloads the page.
 */
export function contentPlugin(options: ContentPluginOptions = {}): Plugin {
  let root = process.cwd();
  let contentDir = options.contentDir ? path.resolve(options.contentDir) : "";
  let bundle: Promise<ContentBundle> | undefined;
  let serving = false;
  let logger: Logger | undefined;

  const compile = (): Promise<ContentBundle> => {
    bundle = compileContent({ contentDir, site, root });
    return bundle;
  };
  const current = (): Promise<ContentBundle> => bundle ?? compile();
  const isContentFile = (file: string): boolean =>
    file.endsWith(".md") && path.resolve(file).startsWith(contentDir + path.sep);

  async function refresh(server: ViteDevServer): Promise<void> {
    try {
      await compile();
      server.config.logger.info("content recompiled", { timestamp: true });
    } catch (error) {
      // The modules still get invalidated: the next request shows the error instead of old text.
      server.config.logger.error(error instanceof Error ? error.message : String(error), {
        timestamp: true,
      });
    }
    const timestamp = Date.now();
    for (const environment of Object.values(server.environments)) {
      for (const id of [RESOLVED_CONTENT, RESOLVED_CSS]) {
        const module = environment.moduleGraph.getModuleById(id);
        if (module) environment.moduleGraph.invalidateModule(module, new Set(), timestamp, true);
      }
    }
    server.ws.send({ type: "full-reload", path: "*" });
  }

  return {
    name: "pinout:content",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
      serving = config.command === "serve";
      logger = config.logger;
      contentDir ||= path.resolve(config.root, "content");
    },
    async buildStart() {
      if (serving) {
        // The dev server keeps running with broken content: the page that needs it shows the
        // error (load rethrows it) until the file is fixed.
        compile().catch((error: unknown) => logger?.error(String(error), { timestamp: true }));
        return;
      }
      // A content error stops the build here, before any bundling work.
      const compiled = await compile();
      for (const file of compiled.files) this.addWatchFile(file);
    },
    resolveId(id) {
      const [bare = "", query] = id.split("?", 2);
      const suffix = query === undefined ? "" : `?${query}`;
      if (bare === CONTENT_MODULE) return RESOLVED_CONTENT + suffix;
      if (bare === CONTENT_CSS_MODULE) return RESOLVED_CSS + suffix;
      return undefined;
    },
    async load(id) {
      const bare = id.split("?", 1)[0];
      if (bare === RESOLVED_CONTENT) return contentModuleCode(await current());
      if (bare === RESOLVED_CSS) return (await current()).css;
      return undefined;
    },
    configureServer(server) {
      server.watcher.add(contentDir);
      // The watcher, not handleHotUpdate, drives recompiling: Vite calls that hook only for edits
      // (not for added or removed files) and not at all when HMR is off.
      const onContentEvent = (file: string) => {
        if (isContentFile(file)) void refresh(server);
      };
      server.watcher.on("add", onContentEvent);
      server.watcher.on("change", onContentEvent);
      server.watcher.on("unlink", onContentEvent);
    },
    handleHotUpdate({ file }) {
      // Nothing imports the Markdown files themselves: refresh() reloads the page once compiled.
      return isContentFile(file) ? [] : undefined;
    },
  };
}
