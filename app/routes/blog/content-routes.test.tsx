// The content routes (blog, legal, search) rendered on the server with their real loaders and the
// compiled content, without a production build: what the HTTP tests check, minus the document.
import type { ComponentType } from "react";
import { renderToString } from "react-dom/server";
import {
  type LoaderFunction,
  type RouteObject,
  StaticRouterProvider,
  createStaticHandler,
  createStaticRouter,
  useLoaderData,
  useMatches,
  useParams,
} from "react-router";
import { describe, expect, it } from "vitest";
import * as legalIndex from "../legal/index";
import * as legalPage from "../legal/page";
import * as search from "../search";
import * as blogIndex from "./index";
import * as blogPost from "./post";

interface RouteModule {
  loader: (...args: never[]) => unknown;
  default: ComponentType<never>;
}

/** A route of a plain data router that renders a framework-mode module the way React Router does. */
function route(path: string, module: RouteModule): RouteObject {
  const Page = module.default as ComponentType<Record<string, unknown>>;
  function Component() {
    return <Page loaderData={useLoaderData()} params={useParams()} matches={useMatches()} />;
  }
  return {
    path,
    // The framework-mode loader types carry more than the data router passes; these loaders only
    // read params and request.
    loader: module.loader as unknown as LoaderFunction,
    Component,
    ErrorBoundary: () => <p>error boundary</p>,
  };
}

const routes = [
  route("/blog", blogIndex),
  route("/blog/:slug", blogPost),
  route("/legal", legalIndex),
  route("/legal/:page", legalPage),
  route("/search", search),
];

async function render(url: string): Promise<{ status: number; html: string }> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost:3000${url}`));
  if (context instanceof Response) return { status: context.status, html: "" };
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StaticRouterProvider router={router} context={context} hydrate={false} />,
  );
  return { status: context.statusCode, html };
}

describe("/blog", () => {
  it("lists every post with date, reading time, description and tags", async () => {
    const { status, html } = await render("/blog");
    expect(status).toBe(200);
    const links = [...html.matchAll(/<h3[^>]*><a[^>]*href="(\/blog\/[^"]+)"/g)].map((m) => m[1]);
    expect(links).toHaveLength(5);
    expect(links[0]).toBe("/blog/i2c-scanner-and-pull-ups");
    expect(links.at(-1)).toBe("/blog/welcome-to-pinout-blog");
    expect(html).toMatch(/<time dateTime="2026-06-02">2 June 2026<\/time>/i);
    expect(html).toContain("min read");
    expect(html).toContain('href="/blog?tag=uart"');
    expect(html).toContain('aria-current="page"');
    // One page only: no pagination.
    expect(html).not.toContain('rel="next"');
  });

  it("filters by tag and refuses unknown pages and tags", async () => {
    const { html } = await render("/blog?tag=uart");
    expect(html).toContain('href="/blog/debugging-uart-with-a-serial-monitor"');
    expect(html).not.toContain('href="/blog/welcome-to-pinout-blog"');
    expect(html).toContain("Posts tagged “uart”");
    expect((await render("/blog?page=2")).status).toBe(404);
    expect((await render("/blog?page=0")).status).toBe(404);
    expect((await render("/blog?tag=nope")).status).toBe(404);
  });
});

describe("/blog/:slug", () => {
  it("renders the post with its meta line, tags, TOC, neighbours and JSON-LD", async () => {
    const { status, html } = await render("/blog/debugging-uart-with-a-serial-monitor");
    expect(status).toBe(200);
    expect(html).toContain("<h1");
    expect(html).toContain("Debugging UART with a serial monitor</h1>");
    expect(html).toContain("Meera Iyer");
    expect(html).toContain('<nav aria-labelledby="toc-heading"');
    expect(html).toContain('href="#baud-rate-mismatch"');
    expect(html).toContain('<h2 id="baud-rate-mismatch">');
    expect(html).toContain('<pre class="shiki');
    expect(html).toContain('rel="prev" class="group');
    expect(html).toContain('href="/blog/reading-a-pinout-diagram"');
    expect(html).toContain('href="/blog/flashing-firmware-esp32-stm32"');
    expect(html).not.toMatch(/<[^>]+\sstyle="/);
    const json = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json ?? "null")).toMatchObject({
      "@type": "BlogPosting",
      headline: "Debugging UART with a serial monitor",
      datePublished: "2026-08-11",
      url: "http://localhost:3000/blog/debugging-uart-with-a-serial-monitor",
    });
  });

  it("gives the meta tags of an article", () => {
    const loaderData = blogPost.loader({
      params: { slug: "welcome-to-pinout-blog" },
    } as Parameters<typeof blogPost.loader>[0]);
    const meta = blogPost.meta({ loaderData } as Parameters<typeof blogPost.meta>[0]);
    expect(meta).toContainEqual({ title: "Welcome to the Pinout blog | Pinout" });
    expect(meta).toContainEqual({ property: "og:type", content: "article" });
    expect(meta).toContainEqual({ property: "article:tag", content: "announcements" });
  });

  it("has no table of contents below four sections, and 404s an unknown slug", async () => {
    const data = blogPost.loader({
      params: { slug: "debugging-uart-with-a-serial-monitor" },
    } as Parameters<typeof blogPost.loader>[0]);
    expect(data.post.toc.length).toBeGreaterThanOrEqual(4);
    expect((await render("/blog/no-such-post")).status).toBe(404);
    expect((await render("/blog/welcome")).status).toBe(404);
  });
});

describe("/legal", () => {
  it("lists the legal pages", async () => {
    const { html } = await render("/legal");
    for (const slug of ["terms", "privacy", "refund", "shipping", "cookies", "contact"]) {
      expect(html).toContain(`href="/legal/${slug}"`);
    }
  });

  it("renders a page with its date, the company and the site URL filled in", async () => {
    const { status, html } = await render("/legal/privacy");
    expect(status).toBe(200);
    expect(html).toContain("Privacy Policy</h1>");
    expect(html).toContain("Last updated");
    expect(html).toContain("Pinout Labs Private Limited");
    expect(html).toContain("the website at http://localhost:3000");
    expect(html).not.toContain("{{");
    expect(html).not.toContain('id="cookie-settings"');
  });

  it("gives the cookie page a place for the consent controls, and 404s unknown pages", async () => {
    expect((await render("/legal/cookies")).html).toContain('<div id="cookie-settings"');
    expect((await render("/legal/nope")).status).toBe(404);
  });
});

describe("/search", () => {
  it("shows a GET form labelled Search and an empty state", async () => {
    const { html } = await render("/search");
    const form = /<form[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/search"');
    expect(html).toContain('<label for="search-query"');
    expect(html).toMatch(/<input[^>]*id="search-query"[^>]*type="search"[^>]*name="q"/);
    expect(html).toContain("Type a word or two");
  });

  it("shows the count and highlighted results", async () => {
    const { html } = await render("/search?q=uart");
    expect(html).toMatch(/\d+ results? for /);
    expect(html).toContain('href="/blog/debugging-uart-with-a-serial-monitor"');
    expect(html).toMatch(/<mark>uart<\/mark>/i);
  });

  it("shows the no-results state and never echoes markup", async () => {
    expect((await render("/search?q=zzzz")).html).toContain("No results for");
    const { html } = await render(`/search?q=${encodeURIComponent("<script>alert(1)</script>")}`);
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
