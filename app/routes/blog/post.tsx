import { Link, data } from "react-router";
import { adjacentPosts, findPost } from "~/.server/content/blog.server";
import { env } from "~/.server/env";
import { PostMeta } from "~/components/content/PostMeta";
import { SharePost } from "~/components/content/SharePost";
import { site } from "~/config/site";
import { Prose } from "~/components/content/Prose";
import { TableOfContents } from "~/components/content/TableOfContents";
import { TagLinks } from "~/components/content/TagLinks";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import { blogPostingStructuredData, jsonLdString } from "~/lib/structured-data";
import contentStyles from "~/styles/content.css?url";
import type { Route } from "./+types/post";
import { publicPageHeaders } from "~/lib/cache-control";

/** Short posts read fine without a table of contents. */
const TOC_MIN_SECTIONS = 4;

export const links: Route.LinksFunction = () => [
  // After the site stylesheet, ahead of the scripts (decision 0026).
  { rel: "stylesheet", href: contentStyles, precedence: "content" },
];

export function loader({ params }: Route.LoaderArgs) {
  const post = findPost(params.slug);
  if (!post) throw data(null, { status: 404 });
  const sections = post.toc.filter((entry) => entry.depth === 2).length;
  return {
    post: {
      slug: post.slug,
      title: post.title,
      description: post.description,
      date: post.date,
      author: post.author,
      tags: post.tags,
      cover: post.cover,
      readingMinutes: post.readingMinutes,
      wordCount: post.wordCount,
      html: post.html,
      toc: sections >= TOC_MIN_SECTIONS ? post.toc : [],
    },
    ...adjacentPosts(post.slug),
    siteUrl: env().SITE_URL,
  };
}

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { post } = loaderData;
  return [
    ...pageMeta(post.title, post.description, "article"),
    { property: "article:published_time", content: post.date },
    { property: "article:author", content: post.author },
    ...post.tags.map((tag) => ({ property: "article:tag", content: tag })),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", href: "/blog/rss.xml" },
  ];
};

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  const { post, previous, next, siteUrl } = loaderData;
  return (
    <article className="prose-page">
      <p className="mb-6 text-sm">
        <Link to="/blog" className="link">
          ← All posts
        </Link>
      </p>
      <PageHeader title={post.title} lead={post.description}>
        <div className="mt-4 space-y-3">
          <PostMeta date={post.date} readingMinutes={post.readingMinutes} author={post.author} />
          <TagLinks tags={post.tags} label="Tags of this post" />
        </div>
      </PageHeader>
      {post.toc.length > 0 ? <TableOfContents entries={post.toc} /> : null}
      <Prose html={post.html} />
      <SharePost
        slug={post.slug}
        title={post.title}
        url={new URL(`/blog/${post.slug}`, siteUrl).href}
      />
      <aside
        aria-labelledby="try-it"
        className="mt-12 rounded-xl border border-green-500/40 bg-green-950/30 p-6"
      >
        <h2 id="try-it" className="text-lg font-semibold text-white">
          Try {site.product.name} on your own boards
        </h2>
        <p className="mt-2 text-slate-300">
          Free forever on one device, for Mac and Windows. Pro adds the logic views and flashing.
        </p>
        <p className="mt-4 flex flex-wrap gap-3">
          <Link className="btn-primary" to="/download">
            Download {site.product.name}
          </Link>
          <Link className="btn-secondary" to="/pricing">
            See pricing
          </Link>
        </p>
      </aside>
      {previous || next ? (
        <nav
          aria-label="Previous and next posts"
          className="mt-14 grid gap-4 border-t border-slate-800 pt-8 sm:grid-cols-2"
        >
          {previous ? (
            <Link
              to={`/blog/${previous.slug}`}
              rel="prev"
              className="group rounded-lg border border-slate-800 p-4 hover:border-green-500"
            >
              <span className="block text-sm text-slate-300">← Previous post</span>
              <span className="mt-1 block font-semibold text-green-300 underline underline-offset-2 group-hover:text-green-200">
                {previous.title}
              </span>
            </Link>
          ) : (
            <span className="hidden sm:block" />
          )}
          {next ? (
            <Link
              to={`/blog/${next.slug}`}
              rel="next"
              className="group rounded-lg border border-slate-800 p-4 text-right hover:border-green-500"
            >
              <span className="block text-sm text-slate-300">Next post →</span>
              <span className="mt-1 block font-semibold text-green-300 underline underline-offset-2 group-hover:text-green-200">
                {next.title}
              </span>
            </Link>
          ) : null}
        </nav>
      ) : null}
      <script
        type="application/ld+json"
        // JSON-LD is data, not code; jsonLdString escapes "<" so it cannot end the element.
        dangerouslySetInnerHTML={{
          __html: jsonLdString(blogPostingStructuredData(post, siteUrl)),
        }}
      />
    </article>
  );
}
