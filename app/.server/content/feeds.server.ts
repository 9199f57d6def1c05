import { Feed } from "feed";
import { type BlogPost, posts } from "virtual:content";
import { site } from "~/config/site";
import { escapeHtml } from "~/lib/escape";
import { postUrl } from "./blog.server";
import { xmlChars } from "./text.server";

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

/**
 * The blog as a feed (the `feed` package writes and escapes the XML). Atom titles are typed HTML
 * there, so a plain-text title is escaped once more for Atom only.
 */
function blogFeed(siteUrl: string, source: readonly BlogPost[], format: "rss" | "atom"): Feed {
  const items = source.slice(0, FEED_LIMIT);
  const newest = items[0];
  const feed = new Feed({
    title: FEED_TITLE,
    description: FEED_DESCRIPTION,
    id: `${siteUrl}/blog`,
    link: `${siteUrl}/blog`,
    language: site.language,
    copyright: `© ${site.company.legalName}`,
    updated: newest ? dateOf(newest) : new Date(0),
    generator: site.product.name,
    feedLinks: { rss: `${siteUrl}/blog/rss.xml`, atom: `${siteUrl}/blog/atom.xml` },
    author: { name: site.company.brandName },
  });
  for (const post of items) {
    const url = `${siteUrl}${postUrl(post.slug)}`;
    const title = xmlChars(post.title);
    feed.addItem({
      title: format === "atom" ? escapeHtml(title) : title,
      id: url,
      link: url,
      description: xmlChars(post.description),
      content: xmlChars(post.html),
      // RSS wants an address with the name: "support@… (Asha Rao)".
      author: [{ name: xmlChars(post.author), email: site.company.supportEmail }],
      date: dateOf(post),
      published: dateOf(post),
      category: post.tags.map((tag) => ({ name: xmlChars(tag), term: xmlChars(tag) })),
    });
  }
  return feed;
}

/** RSS 2.0, with the full post in content:encoded. */
export function rssFeed(siteUrl: string, source: readonly BlogPost[] = posts): string {
  return blogFeed(siteUrl, source, "rss").rss2();
}

/** Atom 1.0 (RFC 4287), with the full post as HTML content. */
export function atomFeed(siteUrl: string, source: readonly BlogPost[] = posts): string {
  return blogFeed(siteUrl, source, "atom").atom1();
}
