import { type BlogPost, type LegalPage, legalPages, posts } from "virtual:content";
import { env } from "~/.server/env";
import { postUrl } from "./blog.server";
import { allLegalPages, legalUrl } from "./legal.server";
import { SITE_PAGES, type SitePage } from "./pages.server";
import { escapeHtml } from "./text.server";

export type SearchKind = "post" | "legal" | "page";

export interface SearchDocument {
  kind: SearchKind;
  url: string;
  title: string;
  description: string;
  /** The text snippets are cut from. */
  body: string;
  /** Words that find the document but are never shown (a React page's topics). */
  keywords?: string;
  /** Publication date of a post (newer posts win ties); null for pages. */
  date: string | null;
}

export interface SearchResult {
  kind: SearchKind;
  url: string;
  title: string;
  /** Escaped text with the matches wrapped in <mark>: safe to render as HTML. */
  snippetHtml: string;
  date: string | null;
  score: number;
}

export interface SearchResults {
  /** The query as searched (trimmed and shortened). */
  query: string;
  terms: string[];
  total: number;
  results: SearchResult[];
}

/** Longer queries are cut: they only cost time and never match more. */
export const MAX_QUERY_LENGTH = 200;
export const MAX_TERMS = 8;
const SNIPPET_LENGTH = 200;
const SNIPPET_LEAD = 60;

/** Where a term is found decides the weight: the title says more than the description or body. */
export const WEIGHTS = { title: 10, description: 4, body: 1 } as const;

export function normalizeQuery(query: string | null | undefined): string {
  return (query ?? "").replace(/\s+/g, " ").trim().slice(0, MAX_QUERY_LENGTH).trim();
}

/** The words of a query, lower-cased and without repeats; every one must match (AND). */
export function parseTerms(query: string): string[] {
  const words = normalizeQuery(query).toLowerCase().split(" ").filter(Boolean);
  return [...new Set(words)].slice(0, MAX_TERMS);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Case-insensitive matcher for one term, run on the original text so offsets stay exact. A term
 * that starts with a letter or digit must start a word: "uart" finds "UART" and "pull-up" finds
 * "pull-ups", but "rise" does not find "surprises".
 */
function termPattern(term: string): RegExp {
  const wordStart = /^[\p{L}\p{N}]/u.test(term) ? "(?<![\\p{L}\\p{N}])" : "";
  return new RegExp(wordStart + escapeRegExp(term), "giu");
}

function countMatches(text: string, term: string): number {
  return text.match(termPattern(term))?.length ?? 0;
}

/** [start, end) ranges of every term in the text, sorted and merged where they overlap. */
function matchRanges(text: string, terms: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const term of terms) {
    for (const match of text.matchAll(termPattern(term))) {
      ranges.push([match.index, match.index + match[0].length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

/**
 * The text as HTML with every term wrapped in <mark>. Each piece is escaped on its own, so
 * neither the text nor the query can inject markup, and a term never matches inside an entity.
 */
export function highlight(text: string, terms: readonly string[]): string {
  let html = "";
  let position = 0;
  for (const [start, end] of matchRanges(text, terms)) {
    html += `${escapeHtml(text.slice(position, start))}<mark>${escapeHtml(text.slice(start, end))}</mark>`;
    position = end;
  }
  return html + escapeHtml(text.slice(position));
}

/** About SNIPPET_LENGTH characters of the text around the first match, cut at word boundaries. */
export function excerpt(text: string, terms: readonly string[]): string {
  const first = matchRanges(text, terms)[0]?.[0] ?? 0;
  if (text.length <= SNIPPET_LENGTH) return text;
  let start = Math.max(0, first - SNIPPET_LEAD);
  if (start > 0) {
    const space = text.indexOf(" ", start);
    start = space === -1 || space > first ? start : space + 1;
  }
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > first) end = space;
  }
  return `${start > 0 ? "… " : ""}${text.slice(start, end)}${end < text.length ? " …" : ""}`;
}

function postDocument(post: BlogPost): SearchDocument {
  return {
    kind: "post",
    url: postUrl(post.slug),
    title: post.title,
    description: post.description,
    body: post.plainText,
    date: post.date,
  };
}

function legalDocument(page: LegalPage): SearchDocument {
  return {
    kind: "legal",
    url: legalUrl(page.slug),
    title: page.title,
    description: page.description,
    body: page.plainText,
    date: null,
  };
}

function siteDocument(page: SitePage): SearchDocument {
  return {
    kind: "page",
    url: page.path,
    title: page.title,
    description: page.description,
    // Snippets of a React page are its description, a sentence; its keywords only match.
    body: page.description,
    keywords: page.keywords,
    date: null,
  };
}

const documentCache = new Map<string, SearchDocument[]>();

/** Everything search looks through: posts, legal pages and the other public pages. */
export function searchDocuments(siteUrl: string = env().SITE_URL): SearchDocument[] {
  let documents = documentCache.get(siteUrl);
  if (!documents) {
    documents = [
      ...posts.map(postDocument),
      ...allLegalPages(siteUrl, legalPages).map(legalDocument),
      ...SITE_PAGES.map(siteDocument),
    ];
    documentCache.set(siteUrl, documents);
  }
  return documents;
}

/** The document's score for these terms, or 0 when one of them is found nowhere in it. */
export function scoreDocument(document: SearchDocument, terms: readonly string[]): number {
  let score = 0;
  for (const term of terms) {
    const inTitle = countMatches(document.title, term);
    const inDescription = countMatches(document.description, term);
    const inBody = countMatches(document.body, term) + countMatches(document.keywords ?? "", term);
    if (inTitle + inDescription + inBody === 0) return 0;
    if (inTitle > 0) score += WEIGHTS.title;
    if (inDescription > 0) score += WEIGHTS.description;
    // More mentions in the body count a little, never as much as one description match.
    if (inBody > 0) score += WEIGHTS.body + Math.min(inBody, 20) / 20;
  }
  return score;
}

function snippetFor(document: SearchDocument, terms: readonly string[]): string {
  const source = terms.some((term) => countMatches(document.body, term) > 0)
    ? document.body
    : document.description;
  return highlight(excerpt(source, terms), terms);
}

/**
 * Ranked search over the documents: every term must appear (in the title, the description or the
 * body); title matches rank above description matches, which rank above body matches.
 */
export function search(
  rawQuery: string | null | undefined,
  documents: readonly SearchDocument[] = searchDocuments(),
): SearchResults {
  const query = normalizeQuery(rawQuery);
  const terms = parseTerms(query);
  if (terms.length === 0) return { query, terms, total: 0, results: [] };
  const results = documents
    .map((document) => ({ document, score: scoreDocument(document, terms) }))
    .filter(({ score }) => score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        (b.document.date ?? "").localeCompare(a.document.date ?? "") ||
        a.document.title.localeCompare(b.document.title),
    )
    .map(({ document, score }) => ({
      kind: document.kind,
      url: document.url,
      title: document.title,
      snippetHtml: snippetFor(document, terms),
      date: document.date,
      score,
    }));
  return { query, terms, total: results.length, results };
}
