import { Link, data } from "react-router";
import { listPosts, parsePage, tagCounts } from "~/.server/content/blog.server";
import { PostMeta } from "~/components/content/PostMeta";
import { TagLinks } from "~/components/content/TagLinks";
import { blogListUrl } from "~/lib/format";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";
import { publicPageHeaders } from "~/lib/cache-control";

const LEAD = "Notes on embedded development and product news.";

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const page = parsePage(params.get("page"));
  const listing = page === null ? null : listPosts({ page, tag: params.get("tag") });
  // A page past the end or a tag no post has: 404, so there is no endless set of empty listings.
  if (!listing) throw data(null, { status: 404 });
  return { listing, tags: tagCounts() };
}

function listingTitle(tag: string | null, page: number): string {
  const base = tag ? `Posts tagged “${tag}”` : "Blog";
  return page > 1 ? `${base}, page ${page}` : base;
}

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return pageMeta("Blog", LEAD);
  const { tag, page, pageCount } = loaderData.listing;
  return [
    ...pageMeta(listingTitle(tag, page), LEAD),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", href: "/blog/rss.xml" },
    { tagName: "link", rel: "alternate", type: "application/atom+xml", href: "/blog/atom.xml" },
    ...(page > 1 ? [{ tagName: "link", rel: "prev", href: blogListUrl(page - 1, tag) }] : []),
    ...(page < pageCount
      ? [{ tagName: "link", rel: "next", href: blogListUrl(page + 1, tag) }]
      : []),
  ];
};

export default function BlogIndexPage({ loaderData }: Route.ComponentProps) {
  const { listing, tags } = loaderData;
  const { tag, page, pageCount } = listing;
  return (
    <div className="prose-page">
      <PageHeader title={listingTitle(tag, page)} lead={LEAD}>
        <p className="mt-3 text-sm text-slate-300">
          Follow along with the{" "}
          <a href="/blog/rss.xml" className="link">
            RSS feed
          </a>{" "}
          or the{" "}
          <a href="/blog/atom.xml" className="link">
            Atom feed
          </a>
          .
        </p>
      </PageHeader>

      <nav aria-labelledby="tags-heading" className="mb-10">
        <h2 id="tags-heading" className="text-sm font-semibold text-white">
          Filter by tag
        </h2>
        <ul className="mt-3 flex flex-wrap gap-2 text-sm">
          <li>
            <Link
              to="/blog"
              aria-current={tag ? undefined : "page"}
              className={tagClass(tag === null)}
            >
              All posts
            </Link>
          </li>
          {tags.slice(0, TOP_TAGS).map((entry) => (
            <li key={entry.tag}>
              <TagLink entry={entry} current={tag} />
            </li>
          ))}
        </ul>
        {tags.length > TOP_TAGS ? (
          <details
            className="mt-3 text-sm"
            open={tags.slice(TOP_TAGS).some((entry) => entry.tag === tag)}
          >
            <summary className="cursor-pointer text-slate-300">
              More tags ({tags.length - TOP_TAGS})
            </summary>
            <ul className="mt-3 flex flex-wrap gap-2">
              {tags.slice(TOP_TAGS).map((entry) => (
                <li key={entry.tag}>
                  <TagLink entry={entry} current={tag} />
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </nav>

      <h2 className="sr-only">Posts</h2>
      <ol className="space-y-10">
        {listing.posts.map((post) => (
          <li key={post.slug}>
            <article aria-labelledby={`post-${post.slug}`}>
              <h3 id={`post-${post.slug}`} className="text-2xl font-bold tracking-tight">
                <Link
                  to={`/blog/${post.slug}`}
                  className="text-white underline decoration-green-400/60 underline-offset-4 hover:decoration-green-300"
                >
                  {post.title}
                </Link>
              </h3>
              <div className="mt-2">
                <PostMeta date={post.date} readingMinutes={post.readingMinutes} />
              </div>
              <p className="mt-3 text-slate-300">{post.description}</p>
              <div className="mt-3">
                <TagLinks tags={post.tags} label={`Tags of “${post.title}”`} />
              </div>
            </article>
          </li>
        ))}
      </ol>

      {pageCount > 1 ? (
        <nav
          aria-label="Pages"
          className="mt-12 flex items-center justify-between border-t border-slate-800 pt-6 text-sm"
        >
          {page > 1 ? (
            <Link to={blogListUrl(page - 1, tag)} rel="prev" className="link">
              ← Newer posts
            </Link>
          ) : (
            <span />
          )}
          <span className="text-slate-300">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link to={blogListUrl(page + 1, tag)} rel="next" className="link">
              Older posts →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}

/** The most used tags show at once; the rest wait behind "More tags", so posts come first. */
const TOP_TAGS = 6;

function TagLink({
  entry,
  current,
}: {
  entry: { tag: string; count: number };
  current: string | null;
}) {
  return (
    <Link
      to={blogListUrl(1, entry.tag)}
      aria-current={entry.tag === current ? "page" : undefined}
      className={tagClass(entry.tag === current)}
    >
      #{entry.tag} <span className="sr-only">(</span>
      {entry.count}
      <span className="sr-only"> {entry.count === 1 ? "post" : "posts"})</span>
    </Link>
  );
}

function tagClass(current: boolean): string {
  return current
    ? "inline-block rounded-full bg-green-500 px-3 py-1 font-semibold text-slate-950"
    : "inline-block rounded-full border border-slate-700 px-3 py-1 text-slate-200 hover:border-green-400 hover:text-white";
}
