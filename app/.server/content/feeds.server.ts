import { type BlogPost, posts } from "virtual:content";
import { site } from "~/config/site";
import { postUrl } from "./blog.server";
import { escapeXml } from "./text.server";

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
export const ATOM_CONTENT_TYPE = "application/atom+xml; charset=utf-8";
/** Readers poll often; the newest posts are all they need. */
export const FEED_LIMIT = 20;

export const FEED_TITLE = `${site.product.name} blog`;
export const FEED_DESCRIPTION = `Notes on embedded development and news from the ${site.product.name} team.`;

/** A post's date (YYYY-MM-DD) as midnight UTC. */
function dateOf(post: BlogPost): Date {
  return new Date(`${post.date}T00:00:00Z`);
}

function element(name: string, text: string, attributes = ""): string {
  return `<${name}${attributes}>${escapeXml(text)}</${name}>`;
}

/** RSS 2.0, with the full post in content:encoded and the author in dc:creator. */
export function rssFeed(siteUrl: string, source: readonly BlogPost[] = posts): string {
  const items = source.slice(0, FEED_LIMIT);
  const newest = items[0];
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    "<channel>",
    element("title", FEED_TITLE),
    element("link", `${siteUrl}/blog`),
    element("description", FEED_DESCRIPTION),
    element("language", site.language),
    element("copyright", `© ${site.company.legalName}`),
    `<atom:link href="${escapeXml(`${siteUrl}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [element("lastBuildDate", dateOf(newest).toUTCString())] : []),
  ];
  for (const post of items) {
    const url = `${siteUrl}${postUrl(post.slug)}`;
    lines.push(
      "<item>",
      element("title", post.title),
      element("link", url),
      element("guid", url, ' isPermaLink="true"'),
      element("pubDate", dateOf(post).toUTCString()),
      element("dc:creator", post.author),
      element("description", post.description),
      ...post.tags.map((tag) => element("category", tag)),
      element("content:encoded", post.html),
      "</item>",
    );
  }
  lines.push("</channel>", "</rss>", "");
  return lines.join("\n");
}

/** Atom 1.0 (RFC 4287), with the full post as escaped HTML content. */
export function atomFeed(siteUrl: string, source: readonly BlogPost[] = posts): string {
  const items = source.slice(0, FEED_LIMIT);
  const newest = items[0];
  const updated = (newest ? dateOf(newest) : new Date(0)).toISOString();
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${escapeXml(site.language)}">`,
    element("title", FEED_TITLE),
    element("subtitle", FEED_DESCRIPTION),
    element("id", `${siteUrl}/blog`),
    `<link rel="alternate" type="text/html" href="${escapeXml(`${siteUrl}/blog`)}"/>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(`${siteUrl}/blog/atom.xml`)}"/>`,
    element("updated", updated),
    `<author>${element("name", site.company.brandName)}</author>`,
    element("rights", `© ${site.company.legalName}`),
  ];
  for (const post of items) {
    const url = `${siteUrl}${postUrl(post.slug)}`;
    const date = dateOf(post).toISOString();
    lines.push(
      "<entry>",
      element("title", post.title),
      element("id", url),
      `<link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      element("published", date),
      element("updated", date),
      `<author>${element("name", post.author)}</author>`,
      ...post.tags.map((tag) => `<category term="${escapeXml(tag)}"/>`),
      element("summary", post.description),
      element("content", post.html, ` type="html" xml:base="${escapeXml(url)}"`),
      "</entry>",
    );
  }
  lines.push("</feed>", "");
  return lines.join("\n");
}
