/**
 * The shape of the compiled content that `virtual:content` exports. Shared by the Vite plugin
 * that produces it and (through vite/virtual-content.d.ts) by the server code that reads it.
 */

/** One entry of a page's table of contents: an h2 or h3 and the id the heading carries. */
export interface TocEntry {
  id: string;
  text: string;
  depth: 2 | 3;
}

/** Markdown turned into HTML, with what the pages and search need to know about it. */
export interface CompiledDocument {
  /** Trusted HTML (our own files): no inline styles, no scripts. */
  html: string;
  toc: TocEntry[];
  /** The text without markup, whitespace collapsed: what search matches against. */
  plainText: string;
  wordCount: number;
  readingMinutes: number;
}

export interface BlogPost extends CompiledDocument {
  slug: string;
  title: string;
  description: string;
  /** Publication date, YYYY-MM-DD. */
  date: string;
  author: string;
  tags: string[];
  /** Site path or absolute URL of a cover image. */
  cover: string | null;
  /** The file it came from, relative to the project (for error messages and watch lists). */
  source: string;
}

export interface LegalPage extends CompiledDocument {
  slug: string;
  title: string;
  description: string;
  /** Date of the last change, YYYY-MM-DD. */
  updated: string;
  source: string;
}

export interface ContentBundle {
  /** Newest first. */
  posts: BlogPost[];
  legalPages: LegalPage[];
  /** Highlighting styles for the code blocks in the posts (class rules, never inline styles). */
  css: string;
  /** Absolute paths of every Markdown file read, for watch mode. */
  files: string[];
}
