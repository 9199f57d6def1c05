import { site } from "~/config/site";

/** The site's default social image (the root layout uses the same file). */
const DEFAULT_IMAGE = "/og/og-default.jpg";

export interface BlogPostingInput {
  slug: string;
  title: string;
  description: string;
  date: string;
  author: string;
  tags: readonly string[];
  cover: string | null;
  wordCount: number;
}

/** schema.org BlogPosting for a post; the publisher is the Organization of the root JSON-LD. */
export function blogPostingStructuredData(post: BlogPostingInput, siteUrl: string) {
  const url = `${siteUrl}/blog/${post.slug}`;
  const image = post.cover ?? DEFAULT_IMAGE;
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    "@id": `${url}#article`,
    headline: post.title,
    description: post.description,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    datePublished: post.date,
    dateModified: post.date,
    author: { "@type": "Person", name: post.author },
    publisher: { "@id": `${siteUrl}/#organization`, name: site.company.legalName },
    image: image.startsWith("/") ? `${siteUrl}${image}` : image,
    keywords: post.tags.join(", "),
    inLanguage: site.language,
    wordCount: post.wordCount,
  };
}
