import { site } from "~/config/site";

/** Site-wide JSON-LD: the company and the website with its search action. */
export function siteStructuredData(siteUrl: string) {
  return {
    "@context": "https://schema.org",
    "@graph": [
      {
        "@type": "Organization",
        "@id": `${siteUrl}/#organization`,
        name: site.company.legalName,
        alternateName: site.company.brandName,
        url: `${siteUrl}/`,
        logo: `${siteUrl}${site.product.logoPath}`,
        email: site.company.supportEmail,
        address: {
          "@type": "PostalAddress",
          streetAddress: `${site.company.address.line1}, ${site.company.address.line2}`,
          addressLocality: site.company.address.city,
          addressRegion: site.company.address.state,
          postalCode: site.company.address.postalCode,
          addressCountry: "IN",
        },
        sameAs: site.social.map((link) => link.url),
      },
      {
        "@type": "WebSite",
        "@id": `${siteUrl}/#website`,
        name: site.product.name,
        url: `${siteUrl}/`,
        inLanguage: site.language,
        publisher: { "@id": `${siteUrl}/#organization` },
        potentialAction: {
          "@type": "SearchAction",
          target: {
            "@type": "EntryPoint",
            urlTemplate: `${siteUrl}/search?q={search_term_string}`,
          },
          "query-input": "required name=search_term_string",
        },
      },
    ],
  };
}

/** JSON for a <script type="application/ld+json">: "<" escaped so no string can close the tag. */
export function jsonLdString(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

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
