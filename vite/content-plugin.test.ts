// Tests of vite/content-plugin.ts, kept under app/ because Vitest only collects tests there
// (and in server/, scripts/, tests/integration/).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type Plugin,
  type ResolvedConfig,
  type ViteDevServer,
  createLogger,
  createServer,
} from "vite";
import { afterEach, describe, expect, it } from "vitest";
import type { BlogPost } from "virtual:content";
import { contentPlugin } from "./content-plugin";

const post = (title: string, date = "2026-01-01") =>
  `---\ntitle: "${title}"\ndescription: "About it."\ndate: ${date}\nauthor: "A"\ntags: ["x"]\n---\n\n## Intro\n\n\`\`\`c\nint x = 1;\n\`\`\`\n`;
const legal =
  '---\ntitle: "Terms"\ndescription: "D"\nupdated: 2026-11-20\n---\n\n{{product.name}}\n';

const dirs: string[] = [];
let server: ViteDevServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function fixture(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-plugin-"));
  dirs.push(root);
  fs.mkdirSync(path.join(root, "content/blog"), { recursive: true });
  fs.mkdirSync(path.join(root, "content/legal"), { recursive: true });
  fs.writeFileSync(path.join(root, "content/blog/first.md"), post("First"));
  fs.writeFileSync(path.join(root, "content/legal/terms.md"), legal);
  return root;
}

/** A hook's function, whether the plugin wrote it as a function or as { handler }. */
function hook<K extends keyof Plugin>(plugin: Plugin, name: K) {
  const value = plugin[name] as unknown;
  const handler =
    typeof value === "function" ? value : (value as { handler: unknown } | undefined)?.handler;
  // Hooks are called with a plugin context; the tests pass the parts of it the plugin uses.
  return handler as (this: unknown, ...args: unknown[]) => unknown;
}

async function titles(dev: ViteDevServer): Promise<string[]> {
  const module = (await dev.ssrLoadModule("virtual:content")) as { posts: BlogPost[] };
  return module.posts.map((p) => p.title);
}

describe("the content plugin", () => {
  it("serves the virtual module and appends the code colours to the content stylesheet", async () => {
    const root = fixture();
    const plugin = contentPlugin();
    const resolveId = hook(plugin, "resolveId");
    const load = hook(plugin, "load");
    const transform = hook(plugin, "transform");
    hook(plugin, "configResolved").call(null, {
      root,
      command: "build",
      logger: createLogger("silent"),
    } as unknown as ResolvedConfig);
    expect(resolveId.call(null, "virtual:content")).toBe("\0virtual:content");
    expect(resolveId.call(null, "virtual:content?x")).toBe("\0virtual:content?x");
    expect(resolveId.call(null, "./other.ts")).toBeUndefined();

    const code = (await load.call(null, "\0virtual:content")) as string;
    expect(code).toMatch(/^export const posts = \[/);
    expect(code).toContain('"slug":"first"');
    expect(code).toContain("export const legalPages = [");
    const styled = (await transform.call(
      null,
      ".prose-content{}",
      `${root}/app/styles/content.css?transform-only`,
    )) as { code: string };
    expect(styled.code).toMatch(/^\.prose-content\{\}\n\/\*[^*]+\*\/\n\.hl-[a-z0-9]+\{/);
    expect(await transform.call(null, ".other{}", `${root}/app/app.css`)).toBeUndefined();
    // The JS module `?url` gives the route is not the stylesheet.
    const url = 'export default "/assets/content.css"';
    expect(await transform.call(null, url, `${root}/app/styles/content.css?url`)).toBeUndefined();
    expect(code).not.toContain(" style=");
    expect(await load.call(null, "/some/file.ts")).toBeUndefined();
  });

  it("fails the build at start with the broken file named", async () => {
    const root = fixture();
    fs.writeFileSync(
      path.join(root, "content/legal/bad.md"),
      legal.replace("product.name", "oops"),
    );
    const plugin = contentPlugin();
    hook(plugin, "configResolved").call(null, {
      root,
      command: "build",
      logger: createLogger("silent"),
    } as unknown as ResolvedConfig);
    await expect(hook(plugin, "buildStart").call({ addWatchFile() {} })).rejects.toThrow(
      /content\/legal\/bad\.md:7: unknown placeholder \{\{oops\}\}/,
    );
  });

  it("recompiles in development when a file changes, appears or breaks", async () => {
    const root = fixture();
    server = await createServer({
      configFile: false,
      root,
      logLevel: "silent",
      appType: "custom",
      server: { middlewareMode: true, hmr: false },
      plugins: [contentPlugin()],
    });
    const dev = server;
    expect(await titles(dev)).toEqual(["First"]);
    // The watcher scans content/ after the server is created: an edit before the scan has seen
    // the file is never reported (a busy machine made that a failure). Edit once it watches it.
    await expect
      .poll(() => dev.watcher.getWatched()[path.join(root, "content/blog")] ?? [], {
        timeout: 10_000,
      })
      .toContain("first.md");

    fs.writeFileSync(path.join(root, "content/blog/first.md"), post("First, edited"));
    await expect.poll(() => titles(dev), { timeout: 10_000 }).toEqual(["First, edited"]);

    fs.writeFileSync(path.join(root, "content/blog/second.md"), post("Second", "2026-02-01"));
    await expect.poll(() => titles(dev), { timeout: 10_000 }).toEqual(["Second", "First, edited"]);

    fs.writeFileSync(
      path.join(root, "content/blog/second.md"),
      post("Second").replace("date", "when"),
    );
    await expect
      .poll(() => titles(dev).catch((error: unknown) => String(error)), { timeout: 10_000 })
      .toMatch(/content\/blog\/second\.md: invalid front matter/);

    fs.rmSync(path.join(root, "content/blog/second.md"));
    await expect
      .poll(() => titles(dev).catch(String), { timeout: 10_000 })
      .toEqual(["First, edited"]);
  });
});
