import { type BlogPost, posts } from "virtual:content";

export const POSTS_PER_PAGE = 10;

/** What a list, a feed entry or a previous/next link shows of a post (no body). */
export interface PostSummary {
  slug: string;
  title: string;
  description: string;
  date: string;
  author: string;
  tags: string[];
  readingMinutes: number;
}

export interface PostLink {
  slug: string;
  title: string;
}

export interface PostListing {
  posts: PostSummary[];
  /** 1-based. */
  page: number;
  pageCount: number;
  /** Posts matching the filter, over all pages. */
  total: number;
  tag: string | null;
}

export interface TagCount {
  tag: string;
  count: number;
}

export function postUrl(slug: string): string {
  return `/blog/${slug}`;
}

export function summarizePost(post: BlogPost): PostSummary {
  return {
    slug: post.slug,
    title: post.title,
    description: post.description,
    date: post.date,
    author: post.author,
    tags: post.tags,
    readingMinutes: post.readingMinutes,
  };
}

/**
 * `?page=` as a page number: absent means 1; anything but a plain positive integer is null
 * (the route answers 404 rather than guessing).
 */
export function parsePage(value: string | null): number | null {
  if (value === null) return 1;
  if (!/^[1-9]\d{0,5}$/.test(value)) return null;
  return Number(value);
}

/**
 * One page of posts, newest first, optionally only those with a tag. Null when the page or the
 * tag does not exist, so every listing URL that answers 200 shows at least one post.
 */
export function listPosts(
  query: { page?: number; tag?: string | null },
  source: readonly BlogPost[] = posts,
): PostListing | null {
  const page = query.page ?? 1;
  const tag = query.tag || null;
  const matching = tag ? source.filter((post) => post.tags.includes(tag)) : source;
  if (tag && matching.length === 0) return null;
  const pageCount = Math.max(1, Math.ceil(matching.length / POSTS_PER_PAGE));
  if (!Number.isInteger(page) || page < 1 || page > pageCount) return null;
  const start = (page - 1) * POSTS_PER_PAGE;
  return {
    posts: matching.slice(start, start + POSTS_PER_PAGE).map(summarizePost),
    page,
    pageCount,
    total: matching.length,
    tag,
  };
}

export function findPost(slug: string, source: readonly BlogPost[] = posts): BlogPost | undefined {
  return source.find((post) => post.slug === slug);
}

/** The post published just before this one (previous) and just after it (next). */
export function adjacentPosts(
  slug: string,
  source: readonly BlogPost[] = posts,
): { previous: PostLink | null; next: PostLink | null } {
  const index = source.findIndex((post) => post.slug === slug);
  if (index === -1) return { previous: null, next: null };
  const link = (post: BlogPost | undefined): PostLink | null =>
    post ? { slug: post.slug, title: post.title } : null;
  // The list is newest first: the older post follows, the newer one precedes.
  return { previous: link(source[index + 1]), next: link(source[index - 1]) };
}

/** Every tag with its number of posts, most used first, then alphabetically. */
export function tagCounts(source: readonly BlogPost[] = posts): TagCount[] {
  const counts = new Map<string, number>();
  for (const post of source) {
    for (const tag of post.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return [...counts]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}
