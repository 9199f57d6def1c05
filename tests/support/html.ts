import { createHash } from "node:crypto";
/** Small readers for server-rendered HTML, enough for assertions without a DOM. */
export function titleOf(html: string): string | undefined {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1];
}

export function metaContent(html: string, key: string): string | undefined {
  const pattern = new RegExp(
    `<meta (?:name|property)="${key.replace(/[.:]/g, "\\$&")}" content="([^"]*)"`,
  );
  return pattern.exec(html)?.[1];
}

export function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? "null"),
  );
}

/** The CSP sources (`sha256-…`) of the inline scripts a page runs (JSON-LD data excepted). */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes = ""]) => !/\bsrc=|application\/ld\+json/.test(attributes))
    .map(([, , body = ""]) => `sha256-${createHash("sha256").update(body).digest("base64")}`);
}

export const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
export const GOOGLEBOT_UA =
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/**
 * The rows of the first table whose markup contains `marker` (a caption or a header), each as
 * the visible text of its cells; header rows included.
 */
export function tableRows(html: string, marker: string): string[][] {
  const tables = html.match(/<table\b[\s\S]*?<\/table>/g) ?? [];
  const table = tables.find((candidate) => candidate.includes(marker));
  if (!table) throw new Error(`no table with ${marker}`);
  return [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row = ""]) =>
    [...row.matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell = ""]) =>
      cell
        .replace(/<[^>]+>/g, "")
        .replace(/&amp;/g, "&")
        .replace(/\s+/g, " ")
        .trim(),
    ),
  );
}
