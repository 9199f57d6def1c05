import fs from "node:fs/promises";
import path from "node:path";
import { transformerStyleToClass } from "@shikijs/transformers";
import type { SiteConfig } from "../../app/config/site";
import {
  ContentError,
  blogFrontMatterSchema,
  legalFrontMatterSchema,
  splitFrontMatter,
  validateFrontMatter,
} from "./front-matter.ts";
import { renderMarkdown, slugify } from "./markdown.ts";
import { placeholderValues, substitutePlaceholders } from "./placeholders.ts";
import type { BlogPost, ContentBundle, LegalPage } from "./types";

export interface CompileOptions {
  /** The folder holding blog/ and legal/. */
  contentDir: string;
  /** Product and company details (app/config/site.ts). */
  site: SiteConfig;
  /** Paths in error messages are shown relative to this folder. */
  root?: string;
}

/**
 * Posts whose slug is not their file name. The welcome post's URL names the product, and the
 * product name lives only in app/config/site.ts.
 */
function slugOverrides(site: SiteConfig): Record<string, string> {
  return { welcome: `welcome-to-${slugify(site.product.name)}-blog` };
}

async function markdownFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => path.join(dir, name));
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function checkSlug(slug: string, file: string, seen: Map<string, string>): void {
  if (!SLUG.test(slug)) {
    throw new ContentError(
      `${file}: "${slug}" is not a usable slug (lower-case words and hyphens)`,
    );
  }
  const other = seen.get(slug);
  if (other) throw new ContentError(`${file}: slug "${slug}" is already used by ${other}`);
  seen.set(slug, file);
}

/**
 * Reads, validates and renders every Markdown file under content/. All problems are reported
 * together, each naming its file, so one build run shows everything there is to fix.
 */
export async function compileContent(options: CompileOptions): Promise<ContentBundle> {
  const root = options.root ?? process.cwd();
  const relative = (file: string) => path.relative(root, file) || file;
  const styleToClass = transformerStyleToClass({ classPrefix: "hl-" });
  const values = placeholderValues(options.site);
  const overrides = slugOverrides(options.site);
  const errors: string[] = [];
  const collect = (error: unknown) => {
    if (error instanceof ContentError) errors.push(error.message);
    else throw error;
  };

  const blogFiles = await markdownFiles(path.join(options.contentDir, "blog"));
  const legalFiles = await markdownFiles(path.join(options.contentDir, "legal"));

  const posts: BlogPost[] = [];
  const postSlugs = new Map<string, string>();
  for (const file of blogFiles) {
    const name = relative(file);
    try {
      const split = splitFrontMatter(await fs.readFile(file, "utf8"), name);
      const meta = validateFrontMatter(blogFrontMatterSchema, split.data, name);
      const base = path.basename(file, ".md");
      const slug = overrides[base] ?? base;
      checkSlug(slug, name, postSlugs);
      const document = await renderMarkdown(split.body, { file: name, styleToClass });
      posts.push({
        slug,
        title: meta.title,
        description: meta.description,
        date: meta.date,
        author: meta.author,
        tags: meta.tags,
        cover: meta.cover ?? null,
        source: name,
        ...document,
      });
    } catch (error) {
      collect(error);
    }
  }

  const legalPages: LegalPage[] = [];
  const legalSlugs = new Map<string, string>();
  for (const file of legalFiles) {
    const name = relative(file);
    try {
      const split = splitFrontMatter(await fs.readFile(file, "utf8"), name);
      const meta = validateFrontMatter(legalFrontMatterSchema, split.data, name);
      const slug = path.basename(file, ".md");
      checkSlug(slug, name, legalSlugs);
      const plain = { markdown: false, firstLine: 2 };
      const body = substitutePlaceholders(split.body, values, name, {
        markdown: true,
        firstLine: split.bodyLine,
      });
      const document = await renderMarkdown(body, { file: name, styleToClass });
      legalPages.push({
        slug,
        title: substitutePlaceholders(meta.title, values, name, plain),
        description: substitutePlaceholders(meta.description, values, name, plain),
        updated: meta.updated,
        source: name,
        ...document,
      });
    } catch (error) {
      collect(error);
    }
  }

  if (errors.length > 0) {
    throw new ContentError(`Content has ${errors.length} problem(s):\n${errors.join("\n")}`);
  }

  posts.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  return {
    posts,
    legalPages,
    css: styleToClass.getCSS(),
    files: [...blogFiles, ...legalFiles],
  };
}
