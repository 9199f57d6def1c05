import path from "node:path";
import { type Logger, normalizePath, type Plugin, type ViteDevServer } from "vite";
import { site } from "../app/config/site.ts";
import { compileContent } from "./content/compile.ts";
import type { ContentBundle } from "./content/types";

export const CONTENT_MODULE = "virtual:content";
// The "\0" prefix tells other plugins this id is not a file.
const RESOLVED_CONTENT = `\0${CONTENT_MODULE}`;
/**
 * The stylesheet of compiled content (blog posts, legal pages), relative to the Vite root. The
 * code highlighting colours are appended to it, so a page that shows content loads one
 * stylesheet it links itself, as a React resource ahead of the scripts (decision 0026), instead
 * of a second one React Router would link after them.
 */
export const CONTENT_STYLESHEET = "app/styles/content.css";

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
 * code highlighting styles appended to CONTENT_STYLESHEET. In development an edit, a new file or
 * a deleted one recompiles, invalidates both modules and reloads the page.
 */
export function contentPlugin(options: ContentPluginOptions = {}): Plugin {
  let root = process.cwd();
  let stylesheet = "";
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
      const modules = [
        environment.moduleGraph.getModuleById(RESOLVED_CONTENT),
        ...(environment.moduleGraph.getModulesByFile(stylesheet) ?? []),
      ];
      for (const module of modules)
        if (module) environment.moduleGraph.invalidateModule(module, new Set(), timestamp, true);
    }
    server.ws.send({ type: "full-reload", path: "*" });
  }

  return {
    name: "pinout:content",
    enforce: "pre",
    configResolved(config) {
      root = config.root;
      stylesheet = normalizePath(path.resolve(config.root, CONTENT_STYLESHEET));
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
      return undefined;
    },
    async load(id) {
      const bare = id.split("?", 1)[0];
      if (bare === RESOLVED_CONTENT) return contentModuleCode(await current());
      return undefined;
    },
    async transform(code, id) {
      const [file = "", query = ""] = id.split("?", 2);
      if (normalizePath(file) !== stylesheet) return undefined;
      // `content.css?url` loads as a JS module naming the asset; Vite compiles the stylesheet
      // itself under another query (e.g. `?transform-only`), and that is where the rules go.
      if (new URLSearchParams(query).has("url")) return undefined;
      const { css } = await current();
      return {
        code: `${code}\n/* Code highlighting colours, from content/ */\n${css}\n`,
        map: null,
      };
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
