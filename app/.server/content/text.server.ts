import { escapeHtml } from "~/lib/escape";

export { escapeHtml };

/**
 * Text made safe for XML content and attributes. Characters XML 1.0 forbids (most C0 controls)
 * are dropped: one stray control character would make the whole feed unreadable.
 */
export function escapeXml(text: string): string {
  return (
    xmlChars(text)
      // XML has &apos; where HTML output uses &#39;; everything else is the same escaping.
      .replace(/[&<>"']/g, (char) => (char === "'" ? "&apos;" : escapeHtml(char)))
  );
}

/** Text without the characters XML 1.0 forbids, for writers that escape the rest themselves. */
export function xmlChars(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching the forbidden characters is the point
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");
}

/** A generated text document (feed, sitemap, robots.txt), cached for an hour by browsers and proxies. */
export function textResponse(body: string, contentType: string): Response {
  return new Response(body, {
    headers: { "Content-Type": contentType, "Cache-Control": "public, max-age=3600" },
  });
}
