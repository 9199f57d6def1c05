import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, jsonLd, metaContent, titleOf } from "../support/html";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

// No database work here, so one engine (the embedded default) is enough.
const POST_COUNT = fs
  .readdirSync(path.resolve(import.meta.dirname, "../../content/blog"))
  .filter((name) => name.endsWith(".md")).length;
const UART_POST = "/blog/debugging-uart-with-a-serial-monitor";

describe("blog, legal pages, search, feeds and sitemap over HTTP", () => {
  let server: RunningTestServer;
  const get = (path: string) =>
    fetch(server.url + path, { redirect: "manual", headers: { "user-agent": BROWSER_UA } });

  beforeAll(async () => {
    server = await startServerOn(httpEngine());
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists every post on /blog, newest first, with dates and reading times", async () => {
    const response = await get("/blog");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toBe("Blog | Pinout");
    const links = [...html.matchAll(/<h3[^>]*><a[^>]*href="(\/blog\/[^"]+)"/g)].map((m) => m[1]);
    expect(links).toHaveLength(POST_COUNT);
    expect(links).toContain("/blog/welcome-to-pinout-blog");
    expect(links).toContain(UART_POST);
    expect(html).toMatch(/<time dateTime="\d{4}-\d{2}-\d{2}">/i);
    expect(html).toContain("min read");
    expect(html).toContain('href="/blog?tag=uart"');
  });

  it("filters by tag and answers 404 for an unknown page or tag", async () => {
    const tagged = await get("/blog?tag=uart");
    expect(tagged.status).toBe(200);
    const html = await tagged.text();
    expect(html).toContain(`href="${UART_POST}"`);
    expect(html).not.toContain('href="/blog/welcome-to-pinout-blog"');
    expect((await get("/blog?page=99")).status).toBe(404);
    expect((await get("/blog?page=abc")).status).toBe(404);
    expect((await get("/blog?tag=no-such-tag")).status).toBe(404);
  });

  it("renders a post with BlogPosting JSON-LD, article meta and highlighted code without inline styles", async () => {
    const response = await get("/blog/welcome-to-pinout-blog");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toBe("Welcome to the Pinout blog | Pinout");
    expect(metaContent(html, "og:type")).toBe("article");
    const posting = jsonLd(html).find(
      (node) => (node as { "@type"?: string })["@type"] === "BlogPosting",
    ) as Record<string, unknown> | undefined;
    expect(posting).toMatchObject({
      headline: "Welcome to the Pinout blog",
      url: `${server.url}/blog/welcome-to-pinout-blog`,
      author: { "@type": "Person" },
      publisher: { "@id": `${server.url}/#organization` },
    });
    expect(html).toMatch(/<h2 id="what-we-make">/);

    const code = await (await get(UART_POST)).text();
    expect(code).toContain('<pre class="shiki');
    expect(code).toContain('id="toc-heading"');
    expect(code).not.toMatch(/<[^>]+\sstyle="/);
    expect(code).not.toContain("<style");
    // The highlighting classes arrive as a stylesheet file (the CSP forbids inline styles).
    const stylesheets = [
      ...code.matchAll(/<link[^>]*\srel="stylesheet"[^>]*\shref="(\/assets\/[^"]+\.css)"/g),
    ];
    const css = await Promise.all(stylesheets.map(async (m) => (await get(m[1]!)).text()));
    const highlightClass = /<span class="(hl-[a-z0-9]+)"/.exec(code)?.[1];
    expect(highlightClass).toBeTruthy();
    // (A minifier may merge rules, so the class can be followed by "," as well as "{".)
    expect(css.some((sheet) => new RegExp(`\\.${highlightClass}[,{]`).test(sheet))).toBe(true);
    expect(css.some((sheet) => sheet.includes(".prose-content"))).toBe(true);
  });

  it("answers an unknown post with the 404 page", async () => {
    const response = await get("/blog/no-such-post");
    expect(response.status).toBe(404);
    expect(titleOf(await response.text())).toBe("Page Not Found | Pinout");
  });

  it("serves RSS and Atom with their content types and one entry per post", async () => {
    const rss = await get("/blog/rss.xml");
    expect(rss.status).toBe(200);
    expect(rss.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const rssText = await rss.text();
    expect(rssText.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    expect(rssText.match(/<item>/g)).toHaveLength(POST_COUNT);
    expect(rssText).toContain(`<link>${server.url}/blog/welcome-to-pinout-blog</link>`);

    const atom = await get("/blog/atom.xml");
    expect(atom.status).toBe(200);
    expect(atom.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    const atomText = await atom.text();
    expect(atomText).toContain('<feed xmlns="http://www.w3.org/2005/Atom"');
    expect(atomText.match(/<entry>/g)).toHaveLength(POST_COUNT);
  });

  it("lists every post and the public pages in sitemap.xml, and not search", async () => {
    const response = await get("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await response.text();
    const blog = await (await get("/blog")).text();
    const postPaths = [...blog.matchAll(/<h3[^>]*><a[^>]*href="(\/blog\/[^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(postPaths).toHaveLength(POST_COUNT);
    for (const postPath of postPaths) expect(xml).toContain(`<loc>${server.url}${postPath}</loc>`);
    expect(xml).toContain(`<loc>${server.url}/pricing</loc>`);
    expect(xml).toContain(`<loc>${server.url}/legal/privacy</loc>`);
    expect(xml).not.toContain("/search");
  });

  it("has an About us page with the company, what it makes and how to reach it, linked from every page", async () => {
    const about = await get("/about");
    expect(about.status).toBe(200);
    const html = await about.text();
    for (const fact of [
      "Pinout Labs Private Limited",
      "29AAPCP1234F1ZC",
      "support@pinout.dev",
      "Bengaluru",
    ])
      expect(html).toContain(fact);
    expect(await (await get("/")).text()).toContain('href="/about"');
    expect(await (await get("/sitemap.xml")).text()).toContain(`<loc>${server.url}/about</loc>`);
  });

  it("serves robots.txt that keeps crawlers out of private areas", async () => {
    const response = await get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text.split("\n")).toContain("Disallow: /account");
    expect(text.split("\n")).toContain("Disallow: /checkout");
    expect(text).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });

  it("renders the legal pages with the company details and the site URL filled in", async () => {
    const response = await get("/legal/privacy");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toBe("Privacy Policy | Pinout");
    expect(html).toContain("Pinout Labs Private Limited");
    expect(html).toContain(`the website at ${server.url}`);
    expect(html).not.toContain("{{");
    expect(html).toContain("Last updated");

    const cookies = await (await get("/legal/cookies")).text();
    expect(cookies).toContain('id="cookie-settings"');
    expect((await get("/legal/no-such-page")).status).toBe(404);

    const index = await (await get("/legal")).text();
    for (const slug of ["terms", "privacy", "refund", "shipping", "cookies", "contact"]) {
      expect(index).toContain(`href="/legal/${slug}"`);
    }
  });

  it("finds the UART post with highlighted matches", async () => {
    const response = await get("/search?q=uart");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(titleOf(html)).toBe("Search | Pinout");
    expect(html).toMatch(/<input[^>]*type="search"[^>]*name="q"/);
    expect(html).toContain(`href="${UART_POST}"`);
    expect(html).toMatch(/<mark>uart<\/mark>/i);
    expect(html).toMatch(/\d+ results? for/);
  });

  it("shows the no-results state, and echoes a hostile query only escaped", async () => {
    const none = await (await get("/search?q=zzzz")).text();
    expect(none).toContain("No results for");
    expect(none).not.toContain("<mark>");

    const hostile = await (
      await get(`/search?q=${encodeURIComponent("<script>alert(1)</script>")}`)
    ).text();
    expect(hostile).not.toContain("<script>alert(1)</script>");
    expect(hostile).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});
