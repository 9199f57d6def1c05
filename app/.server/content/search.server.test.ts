import { describe, expect, it } from "vitest";
import {
  MAX_QUERY_LENGTH,
  type SearchDocument,
  excerpt,
  highlight,
  parseTerms,
  search,
  searchDocuments,
} from "./search.server";

const doc = (overrides: Partial<SearchDocument> & { url: string }): SearchDocument => ({
  kind: "post",
  title: "Untitled",
  description: "Nothing here.",
  body: "Nothing to see.",
  date: null,
  ...overrides,
});

describe("parseTerms", () => {
  it("splits on whitespace, lower-cases and drops repeats", () => {
    expect(parseTerms("  UART   baud\tuart ")).toEqual(["uart", "baud"]);
    expect(parseTerms("")).toEqual([]);
    expect(parseTerms("   ")).toEqual([]);
  });

  it("cuts very long queries", () => {
    const terms = parseTerms("x".repeat(MAX_QUERY_LENGTH + 50));
    expect(terms[0]).toHaveLength(MAX_QUERY_LENGTH);
  });
});

describe("highlight", () => {
  it("wraps every match, case-insensitively, in <mark>", () => {
    expect(highlight("UART and uart", ["uart"])).toBe("<mark>UART</mark> and <mark>uart</mark>");
  });

  it("escapes the text and the matches: neither can inject markup", () => {
    expect(highlight("Never <script>alert(1)</script> & co", ["<script>"])).toBe(
      "Never <mark>&lt;script&gt;</mark>alert(1)&lt;/script&gt; &amp; co",
    );
    // A term never matches inside an entity the escaping produced.
    expect(highlight("a & b", ["amp"])).toBe("a &amp; b");
    expect(highlight('say "hi"', ["quot"])).toBe("say &quot;hi&quot;");
  });

  it("merges overlapping matches of different terms", () => {
    expect(highlight("pull-ups", ["pull", "pull-up"])).toBe("<mark>pull-up</mark>s");
  });

  it("matches terms at the start of words only", () => {
    expect(highlight("Rise time, surprises, rises", ["rise"])).toBe(
      "<mark>Rise</mark> time, surprises, <mark>rise</mark>s",
    );
    expect(highlight("ESP32-S3 and esp32", ["esp32"])).toBe(
      "<mark>ESP32</mark>-S3 and <mark>esp32</mark>",
    );
  });

  it("treats regular-expression characters in a term literally", () => {
    expect(highlight("a.b axb (c)", ["a.b", "(c)"])).toBe("<mark>a.b</mark> axb <mark>(c)</mark>");
  });
});

describe("excerpt", () => {
  it("returns short text whole", () => {
    expect(excerpt("Short text.", ["text"])).toBe("Short text.");
  });

  it("cuts long text around the first match at word boundaries", () => {
    const words = Array.from({ length: 100 }, (_, index) => `word${index}`);
    words[60] = "needle";
    const snippet = excerpt(words.join(" "), ["needle"]);
    expect(snippet.startsWith("… word")).toBe(true);
    expect(snippet.endsWith(" …")).toBe(true);
    expect(snippet).toContain("needle");
    expect(snippet.length).toBeLessThanOrEqual(210);
    const inner = snippet.replace(/^… /, "").replace(/ …$/, "").split(" ");
    expect(inner.every((word) => /^(word\d+|needle)$/.test(word))).toBe(true);
  });
});

describe("search", () => {
  const documents = [
    doc({ url: "/body", title: "Clocks", body: "The uart peripheral is useful." }),
    doc({ url: "/title", title: "Debugging UART", body: "Serial debugging." }),
    doc({ url: "/description", title: "Buses", description: "Why UART fails." }),
    doc({ url: "/none", title: "Pull-ups", body: "I2C only." }),
  ];

  it("ranks title matches above description matches above body matches", () => {
    const results = search("uart", documents);
    expect(results.total).toBe(3);
    expect(results.results.map((result) => result.url)).toEqual([
      "/title",
      "/description",
      "/body",
    ]);
  });

  it("requires every term (AND)", () => {
    expect(search("uart serial", documents).results.map((result) => result.url)).toEqual([
      "/title",
    ]);
    expect(search("uart zzzz", documents).total).toBe(0);
  });

  it("shows a highlighted snippet from the body, or the description when the body lacks the term", () => {
    const [title, description] = search("uart", documents).results;
    expect(title?.snippetHtml).toBe("Nothing here.");
    expect(description?.snippetHtml).toBe("Why <mark>UART</mark> fails.");
    expect(search("useful", documents).results[0]?.snippetHtml).toBe(
      "The uart peripheral is <mark>useful</mark>.",
    );
  });

  it("answers an empty query with no results", () => {
    expect(search("", documents)).toEqual({ query: "", terms: [], total: 0, results: [] });
    expect(search(null, documents).total).toBe(0);
  });

  it("never returns markup from the query", () => {
    const results = search("<script>", [doc({ url: "/x", body: "Put <script> tags last." })]);
    expect(results.query).toBe("<script>");
    expect(results.results[0]?.snippetHtml).toBe("Put <mark>&lt;script&gt;</mark> tags last.");
  });

  it("finds the UART post first among the real posts and pages", () => {
    const results = search("uart", searchDocuments("https://pinout.example"));
    expect(results.results[0]?.url).toBe("/blog/debugging-uart-with-a-serial-monitor");
    expect(results.results[0]?.snippetHtml).toContain("<mark>");
    expect(search("zzzz", searchDocuments("https://pinout.example")).total).toBe(0);
  });

  it("finds legal pages with their placeholders filled, and the other public pages", () => {
    const documents = searchDocuments("https://pinout.example");
    expect(search("grievance officer", documents).results.map((r) => r.url)).toContain(
      "/legal/contact",
    );
    expect(search("pinout.example", documents).results.map((r) => r.url)).toContain(
      "/legal/privacy",
    );
    expect(search("pricing", documents).results[0]?.url).toBe("/pricing");
    expect(documents.some((document) => document.body.includes("{{"))).toBe(false);
  });
});

describe("snippets of the React pages", () => {
  it("are sentences from the page, never its keyword list", () => {
    const results = search("subscription");
    const pricing = results.results.find((result) => result.url === "/pricing");
    expect(pricing).toBeDefined();
    expect(pricing?.snippetHtml).toContain("Plans and prices in Indian rupees");
    expect(pricing?.snippetHtml).not.toMatch(/plans price prices/);
  });
});
