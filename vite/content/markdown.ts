import { type ShikiTransformerStyleToClass } from "@shikijs/transformers";
import { Marked, Renderer, type Token, type Tokens } from "marked";
import {
  bundledLanguages,
  bundledLanguagesAlias,
  createHighlighter,
  type Highlighter,
} from "shiki";
import { escapeHtml } from "../../app/lib/escape.ts";
import { ContentError } from "./front-matter.ts";
import type { CompiledDocument, TocEntry } from "./types";

/** GitHub's dark theme with readable comments: every token is at least 4.5:1 on its background. */
export const CODE_THEME = "github-dark-default";

export const WORDS_PER_MINUTE = 200;

/**
 * Ids the pages around the Markdown already use (root layout, legal page, table of contents); a
 * heading never takes them.
 */
const RESERVED_IDS = ["main", "cookie-settings", "toc-heading"];

let highlighter: Promise<Highlighter> | undefined;

/** One highlighter per process: creating one loads the theme and the regex engine. */
export function loadHighlighter(): Promise<Highlighter> {
  highlighter ??= createHighlighter({ themes: [CODE_THEME], langs: [] });
  return highlighter;
}

/** Lower-case words joined by hyphens: "3.3 V versus 5 V" → "3-3-v-versus-5-v". */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function readingMinutes(wordCount: number): number {
  return Math.max(1, Math.round(wordCount / WORDS_PER_MINUTE));
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** The language name of a fence ("c", "C {1,3}" → "c"); empty when there is none. */
function fenceLanguage(lang: string | undefined): string {
  return (lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
}

function isBundledLanguage(language: string): boolean {
  return (
    Object.hasOwn(bundledLanguages, language) || Object.hasOwn(bundledLanguagesAlias, language)
  );
}

/** Text of a token tree without markup; block boundaries become spaces. */
function collectText(token: Token, out: string[]): void {
  switch (token.type) {
    case "code":
    case "codespan":
      out.push((token as Tokens.Code | Tokens.Codespan).text);
      break;
    case "html":
      out.push((token as Tokens.HTML).text.replace(/<[^>]*>/g, " "));
      break;
    case "list":
      for (const item of (token as Tokens.List).items) collectText(item, out);
      break;
    case "table": {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) {
        for (const child of cell.tokens) collectText(child, out);
        out.push(" ");
      }
      break;
    }
    case "br":
    case "hr":
    case "space":
      break;
    default:
      if ("tokens" in token && Array.isArray(token.tokens)) {
        for (const child of token.tokens as Token[]) collectText(child, out);
      } else if ("text" in token && typeof token.text === "string") {
        out.push(token.text);
      }
  }
  if (!["text", "escape", "codespan", "strong", "em", "del", "link"].includes(token.type)) {
    out.push(" ");
  }
}

export function plainTextOf(tokens: readonly Token[]): string {
  const out: string[] = [];
  for (const token of tokens) collectText(token, out);
  return out.join("").replace(/\s+/g, " ").trim();
}

export interface RenderOptions {
  /** The file, for error messages. */
  file: string;
  /** Collects the colours of highlighted code as classes; its CSS is appended to app/styles/content.css. */
  styleToClass: ShikiTransformerStyleToClass;
}

/**
 * Markdown (GFM) to HTML: h2/h3 get stable ids and make the table of contents, fenced code is
 * highlighted with class names only (the CSP allows no inline styles), tables scroll on their own.
 */
export async function renderMarkdown(
  markdown: string,
  options: RenderOptions,
): Promise<CompiledDocument> {
  const shiki = await loadHighlighter();
  const toc: TocEntry[] = [];
  const usedIds = new Set(RESERVED_IDS);
  const tableLabels = new Set<string>();
  const uniqueId = (base: string): string => {
    let id = base || "section";
    for (let n = 2; usedIds.has(id); n += 1) id = `${base || "section"}-${n}`;
    usedIds.add(id);
    return id;
  };

  const marked = new Marked({ gfm: true });
  const tokens = marked.lexer(markdown);

  const languages = new Set<string>();
  marked.walkTokens(tokens, (token) => {
    if (token.type === "code") languages.add(fenceLanguage((token as Tokens.Code).lang));
  });
  const loaded = new Set(shiki.getLoadedLanguages());
  const missing = [...languages].filter((lang) => !loaded.has(lang) && isBundledLanguage(lang));
  // Shiki accepts its bundled names and aliases; the check above keeps unknown names out.
  if (missing.length > 0)
    await shiki.loadLanguage(...(missing as Parameters<Highlighter["loadLanguage"]>));
  const highlightable = new Set(shiki.getLoadedLanguages());

  marked.use({
    renderer: {
      heading({ tokens: inline, depth }) {
        const text = this.parser.parseInline(inline, this.parser.textRenderer).trim();
        if (depth === 1) {
          throw new ContentError(
            `${options.file}: "# ${text}": use "##" for sections, the page title is the only h1`,
          );
        }
        const html = this.parser.parseInline(inline);
        if (depth > 3) return `<h${depth}>${html}</h${depth}>\n`;
        const id = uniqueId(slugify(text));
        toc.push({ id, text, depth: depth as 2 | 3 });
        return `<h${depth} id="${id}">${html}</h${depth}>\n`;
      },
      code({ text, lang }) {
        const language = fenceLanguage(lang);
        if (language && highlightable.has(language)) {
          return `${shiki.codeToHtml(text, {
            lang: language,
            theme: CODE_THEME,
            transformers: [options.styleToClass],
          })}\n`;
        }
        return `<pre class="code-plain" tabindex="0"><code>${escapeHtml(text)}</code></pre>\n`;
      },
      table(token) {
        // A wide table scrolls inside its own focusable region, so keyboard users can scroll it.
        const headers = token.header.map((cell) =>
          this.parser.parseInline(cell.tokens, this.parser.textRenderer).trim(),
        );
        let label = `Table: ${headers.join(", ")}`;
        for (let n = 2; tableLabels.has(label); n += 1) label = `Table ${n}: ${headers.join(", ")}`;
        tableLabels.add(label);
        const table = Renderer.prototype.table.call(this, token);
        return `<div class="table-scroll" role="region" aria-label="${escapeHtml(label)}" tabindex="0">\n${table}</div>\n`;
      },
    },
  });

  const html = marked.parser(tokens);
  const plainText = plainTextOf(tokens);
  const wordCount = countWords(plainText);
  return { html, toc, plainText, wordCount, readingMinutes: readingMinutes(wordCount) };
}
