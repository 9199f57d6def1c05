import fs from "node:fs";
import path from "node:path";
import { legalPages } from "virtual:content";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { LEGAL_PAGES } from "~/lib/legal-pages";
import { makeLegalPage } from "./fixtures";
import { fillRuntimePlaceholders, getLegalPage, listLegalPages } from "./legal.server";

const LEGAL_DIR = path.resolve(import.meta.dirname, "../../../content/legal");

describe("app/lib/legal-pages.ts", () => {
  it("agrees with content/legal: same pages, titles and descriptions", () => {
    const files = fs
      .readdirSync(LEGAL_DIR)
      .filter((name) => name.endsWith(".md"))
      .map((name) => {
        const source = fs.readFileSync(path.join(LEGAL_DIR, name), "utf8");
        const yaml = /^---\n([\s\S]*?)\n---/.exec(source)?.[1] ?? "";
        const meta = parseYaml(yaml) as { title: string; description: string };
        return {
          slug: name.replace(/\.md$/, ""),
          title: meta.title,
          description: meta.description,
        };
      });
    const listed = LEGAL_PAGES.map(({ slug, title, description }) => ({
      slug,
      title,
      description,
    }));
    const bySlug = (a: { slug: string }, b: { slug: string }) => a.slug.localeCompare(b.slug);
    expect([...listed].sort(bySlug)).toEqual([...files].sort(bySlug));
  });

  it("matches the compiled pages", () => {
    expect(legalPages.map((page) => page.slug).sort()).toEqual(
      LEGAL_PAGES.map((page) => page.slug).sort(),
    );
  });
});

describe("legal pages", () => {
  const siteUrl = "https://pinout.example";

  it("are listed in the footer's order", () => {
    expect(listLegalPages(siteUrl).map((page) => page.slug)).toEqual(
      LEGAL_PAGES.map((page) => page.slug),
    );
  });

  it("fill {{site.url}} at request time, with the company details filled at build time", () => {
    const privacy = getLegalPage("privacy", siteUrl);
    expect(privacy?.html).toContain("the website at https://pinout.example");
    expect(privacy?.html).toContain("Pinout Labs Private Limited");
    expect(privacy?.html).not.toContain("{{");
    expect(privacy?.plainText).toContain("https://pinout.example");
    expect(privacy?.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("escapes the URL in HTML but not in plain text", () => {
    expect(
      fillRuntimePlaceholders("<p>{{site.url}}</p>", 'https://a.example/?x="1"&y', "html"),
    ).toBe("<p>https://a.example/?x=&quot;1&quot;&amp;y</p>");
    expect(fillRuntimePlaceholders("at {{site.url}}", "https://a.example", "text")).toBe(
      "at https://a.example",
    );
    const page = makeLegalPage({ slug: "x", title: "About {{site.url}}" });
    expect(getLegalPage("x", "https://a.example", [page])?.title).toBe("About https://a.example");
  });

  it("answer undefined for an unknown slug", () => {
    expect(getLegalPage("nope", siteUrl)).toBeUndefined();
    expect(getLegalPage("", siteUrl)).toBeUndefined();
  });
});
