import { useEffect } from "react";
import { Form, Link } from "react-router";
import { track } from "~/lib/analytics/client";
import { type SearchKind, search } from "~/.server/content/search.server";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/search";
import { publicPageHeaders } from "~/lib/cache-control";

const KIND_LABELS: Record<SearchKind, string> = { post: "Blog post", legal: "Legal", page: "Page" };

export function loader({ request }: Route.LoaderArgs) {
  const { query, total, results } = search(new URL(request.url).searchParams.get("q"));
  return {
    query,
    total,
    results: results.map(({ kind, url, title, snippetHtml }) => ({
      kind,
      url,
      title,
      snippetHtml,
    })),
  };
}

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) => [
  ...pageMeta("Search", "Search the blog and the site."),
  // Result pages are endless variations of pages crawlers can reach directly; the empty search
  // page itself is the site's search entry (the WebSite SearchAction in the JSON-LD points here).
  ...(loaderData?.query ? [{ name: "robots", content: "noindex, follow" }] : []),
];

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, total, results } = loaderData;

  useEffect(() => {
    if (query !== "") track("search", { search_term: query.slice(0, 200), results_count: total });
  }, [query, total]);
  return (
    <div className="prose-page">
      <PageHeader title="Search" lead="Search the blog and the site." />

      {/* A plain GET form: it works without JavaScript; with it, React Router navigates. */}
      <Form
        method="get"
        action="/search"
        role="search"
        className="flex flex-col gap-2 sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="search-query" className="block text-sm font-medium text-slate-200">
            Search
          </label>
          <input
            // A new query (back button, another search) resets the field to the URL's value.
            key={query}
            id="search-query"
            type="search"
            name="q"
            defaultValue={query}
            maxLength={200}
            autoComplete="off"
            className="mt-1 block w-full rounded-lg border border-slate-600 bg-slate-900 px-3 py-2 text-slate-100 placeholder:text-slate-400"
            placeholder="UART, pull-ups, refunds…"
          />
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
      </Form>

      <section aria-labelledby="results-heading" className="mt-10">
        <h2 id="results-heading" className="sr-only">
          Results
        </h2>
        {query === "" ? (
          <p className="text-slate-300">
            Type a word or two to search the blog posts, the legal pages and the rest of the site.
          </p>
        ) : total === 0 ? (
          <div role="status" className="text-slate-300">
            <p>
              No results for <strong className="text-white">“{query}”</strong>.
            </p>
            <p className="mt-2">
              Try fewer or shorter words, or browse the{" "}
              <Link to="/blog" className="link">
                blog
              </Link>{" "}
              and the{" "}
              <Link to="/legal" className="link">
                legal pages
              </Link>
              .
            </p>
          </div>
        ) : (
          <>
            <p role="status" className="text-slate-300">
              {`${total} ${total === 1 ? "result" : "results"} for `}
              <strong className="text-white">“{query}”</strong>
            </p>
            <ol className="mt-6 space-y-8">
              {results.map((result) => (
                <li key={result.url}>
                  <p className="text-xs font-semibold tracking-wide text-green-300 uppercase">
                    {KIND_LABELS[result.kind]}
                  </p>
                  <h3 className="mt-1 text-lg font-semibold">
                    <Link to={result.url} className="link">
                      {result.title}
                    </Link>
                  </h3>
                  <p
                    className="mt-1 text-slate-300 [&_mark]:rounded-sm [&_mark]:bg-green-300 [&_mark]:px-0.5 [&_mark]:text-slate-950"
                    // Escaped on the server; only the <mark> tags around matches are markup.
                    dangerouslySetInnerHTML={{ __html: result.snippetHtml }}
                  />
                </li>
              ))}
            </ol>
          </>
        )}
      </section>
    </div>
  );
}
