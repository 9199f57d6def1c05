import type { BlogPost, LegalPage } from "virtual:content";

/** A compiled post for tests; the fields not given get plain defaults. */
export function makePost(overrides: Partial<BlogPost> & { slug: string }): BlogPost {
  return {
    title: `Post ${overrides.slug}`,
    description: `About ${overrides.slug}.`,
    date: "2026-01-01",
    author: "Test Author",
    tags: [],
    cover: null,
    source: `content/blog/${overrides.slug}.md`,
    html: "<p>Body.</p>\n",
    toc: [],
    plainText: "Body.",
    wordCount: 1,
    readingMinutes: 1,
    ...overrides,
  };
}

export function makeLegalPage(overrides: Partial<LegalPage> & { slug: string }): LegalPage {
  return {
    title: `Page ${overrides.slug}`,
    description: `About ${overrides.slug}.`,
    updated: "2026-01-01",
    source: `content/legal/${overrides.slug}.md`,
    html: "<p>Body.</p>\n",
    toc: [],
    plainText: "Body.",
    wordCount: 1,
    readingMinutes: 1,
    ...overrides,
  };
}

/** `count` posts, newest first, one a day back from 2026-12-31; every third is tagged "odd". */
export function makePosts(count: number): BlogPost[] {
  return Array.from({ length: count }, (_, index) => {
    const date = new Date(Date.UTC(2026, 11, 31 - index)).toISOString().slice(0, 10);
    return makePost({
      slug: `post-${index + 1}`,
      date,
      tags: index % 3 === 0 ? ["odd", "all"] : ["all"],
    });
  });
}
