import { escapeHtml } from "~/lib/escape";

export { escapeHtml };

/**
 * Text made safe for XML content and attributes. Characters XML 1.0 forbids (most C0 controls)
 * are dropped: one stray control character would make the whole feed unreadable.
 */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- matching the forbidden characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      // XML has &apos; where HTML output uses &#39;; everything else is the same escaping.
      .replace(/[&<>"']/g, (char) => (char === "'" ? "&apos;" : escapeHtml(char)))
  );
}

/** A generated text document (feed, sitemap, robots.txt), cached for an hour by browsers and proxies. */
export function textResponse(body: string, contentType: string): Response {
  return new Response(body, {
    headers: { "Content-Type": contentType, "Cache-Control": "public, max-age=3600" },
  });
}
