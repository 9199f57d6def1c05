import { createHash } from "node:crypto";

// Script elements the CSP governs: no type, a JavaScript MIME type, a module, an import map.
// Data blocks (application/ld+json) are never executed, so the policy need not allow them.
const EXECUTABLE_TYPE =
  /^(|module|importmap|text\/javascript|application\/javascript|text\/ecmascript)$/i;
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const SRC_ATTRIBUTE = /(?:^|\s)src\s*=/i;
const TYPE_ATTRIBUTE = /(?:^|\s)type\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;

/**
 * The CSP `sha256-…` source of every inline script a page runs, in order, without repeats: the
 * hash of the exact text between the tags, as the browser computes it.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = "", body = ""] of html.matchAll(SCRIPT)) {
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = TYPE_ATTRIBUTE.exec(attributes);
    const value = (type?.[1] ?? type?.[2] ?? type?.[3] ?? "").trim();
    if (!EXECUTABLE_TYPE.test(value)) continue;
    hashes.add(`sha256-${createHash("sha256").update(body, "utf8").digest("base64")}`);
  }
  return [...hashes];
}
