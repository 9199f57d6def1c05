const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/**
 * Text made safe for XML content and attributes. Characters XML 1.0 forbids (most C0 controls)
 * are dropped: one stray control character would make the whole feed unreadable.
 */
export function escapeXml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- matching the forbidden characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "")
      .replace(/[&<>"']/g, (char) => (char === "'" ? "&apos;" : (HTML_ESCAPES[char] ?? char)))
  );
}

/** A generated text document (feed, sitemap, robots.txt), cached for an hour by browsers and proxies. */
export function textResponse(body: string, contentType: string): Response {
  return new Response(body, {
    headers: { "Content-Type": contentType, "Cache-Control": "public, max-age=3600" },
  });
}
