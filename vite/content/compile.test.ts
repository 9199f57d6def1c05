// Tests of the build-time compiler in vite/content/. They live here because Vitest only collects
// tests under app/, server/, scripts/ and tests/integration/ (vitest.config.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { transformerStyleToClass } from "@shikijs/transformers";
import { afterEach, describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { compileContent } from "./compile";
import {
  ContentError,
  blogFrontMatterSchema,
  legalFrontMatterSchema,
  splitFrontMatter,
  validateFrontMatter,
} from "./front-matter";
import { countWords, readingMinutes, renderMarkdown, slugify } from "./markdown";
import { escapeMarkdownText, placeholderValues, substitutePlaceholders } from "./placeholders";

const ROOT = path.resolve(import.meta.dirname, "../..");

const render = (markdown: string) =>
  renderMarkdown(markdown, { file: "test.md", styleToClass: transformerStyleToClass() });

function errorOf(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}

const validPost = {
  title: "A post",
  description: "What it is about.",
  date: "2026-01-02",
  author: "Meera Iyer",
  tags: ["uart", "stm32"],
};

describe("front matter", () => {
  it("splits YAML from the Markdown body and knows where the body starts", () => {
    const split = splitFrontMatter('---\ntitle: "Hi"\nn: 1\n---\n\nBody text\n', "a.md");
    expect(split.data).toEqual({ title: "Hi", n: 1 });
    expect(split.body).toBe("\nBody text\n");
    expect(split.bodyLine).toBe(5);
  });

  it("refuses a file without front matter or with broken YAML, naming the file", () => {
    expect(() => splitFrontMatter("# Title\n", "content/blog/x.md")).toThrow(
      /content\/blog\/x\.md: no front matter/,
    );
    expect(() => splitFrontMatter("---\ntitle: [unclosed\n---\n", "y.md")).toThrow(
      /y\.md: front matter is not valid YAML/,
    );
  });

  it("accepts a valid post and normalises its fields", () => {
    const meta = validateFrontMatter(blogFrontMatterSchema, { ...validPost, title: " T " }, "a.md");
    expect(meta).toEqual({ ...validPost, title: "T" });
  });

  it("lists every wrong field of a post in one error", () => {
    const error = errorOf(() =>
      validateFrontMatter(
        blogFrontMatterSchema,
        {
          title: "",
          description: "x".repeat(161),
          date: "2026-02-30",
          tags: ["Not A Slug", "ok"],
          cover: "javascript:alert(1)",
          extra: true,
        },
        "content/blog/bad.md",
      ),
    );
    expect(error).toBeInstanceOf(ContentError);
    expect(error.message).toContain("content/blog/bad.md: invalid front matter");
    expect(error.message).toMatch(/title: must not be empty/);
    expect(error.message).toMatch(/description: must be at most 160 characters/);
    expect(error.message).toMatch(/date: must be a date written YYYY-MM-DD, got "2026-02-30"/);
    expect(error.message).toMatch(/author: /);
    expect(error.message).toMatch(/tags\.0: tags are lower-case/);
    expect(error.message).toMatch(/cover: must be a site path/);
    expect(error.message).toMatch(/extra/);
  });

  it("allows exactly 160 characters of description, repeated tags never", () => {
    const long = { ...validPost, description: "x".repeat(160) };
    expect(validateFrontMatter(blogFrontMatterSchema, long, "a.md").description).toHaveLength(160);
    expect(() =>
      validateFrontMatter(blogFrontMatterSchema, { ...validPost, tags: ["a", "a"] }, "a.md"),
    ).toThrow(/tags: must not repeat a tag/);
  });

  it("requires title, description and updated on legal pages", () => {
    expect(() => validateFrontMatter(legalFrontMatterSchema, { title: "Terms" }, "t.md")).toThrow(
      /description: [\s\S]*updated: /,
    );
    expect(
      validateFrontMatter(
        legalFrontMatterSchema,
        { title: "Terms", description: "d", updated: "2026-11-20" },
        "t.md",
      ),
    ).toEqual({ title: "Terms", description: "d", updated: "2026-11-20" });
  });
});

describe("placeholders", () => {
  const values = placeholderValues(site);

  it("fills every documented placeholder from app/config/site.ts", () => {
    expect(Object.keys(values).sort()).toEqual(
      [
        "company.address",
        "company.city",
        "company.gstin",
        "company.legalName",
        "company.phone",
        "company.state",
        "company.supportEmail",
        "grievance.designation",
        "grievance.email",
        "grievance.name",
        "grievance.phone",
        "product.name",
      ].sort(),
    );
    expect(values["company.address"]).toBe(
      "3rd Floor, 42 Residency Road, Shanthala Nagar, Ashok Nagar, Bengaluru, Karnataka 560025, India",
    );
    const text = substitutePlaceholders(
      "{{product.name}} by {{ company.legalName }}, GSTIN {{company.gstin}}",
      values,
      "a.md",
      { markdown: false },
    );
    expect(text).toBe("Pinout by Pinout Labs Private Limited, GSTIN 29AAPCP1234F1ZC");
  });

  it("keeps {{site.url}} for the server to fill at request time", () => {
    expect(substitutePlaceholders("at {{ site.url }}.", values, "a.md", { markdown: true })).toBe(
      "at {{site.url}}.",
    );
  });

  it("fails on an unknown placeholder with the file, the line and the known names", () => {
    const error = errorOf(() =>
      substitutePlaceholders("line one\nline two {{company.fax}}\n", values, "content/legal/x.md", {
        markdown: true,
        firstLine: 6,
      }),
    );
    expect(error).toBeInstanceOf(ContentError);
    expect(error.message).toContain("content/legal/x.md:7: unknown placeholder {{company.fax}}");
    expect(error.message).toContain("company.gstin");
  });

  it("escapes Markdown syntax in values but leaves e-mail addresses linkable", () => {
    expect(escapeMarkdownText("A *bold* [link] <b> & _x_")).toBe(
      "A \\*bold\\* \\[link\\] \\<b\\> \\& \\_x\\_",
    );
    expect(escapeMarkdownText("# not a heading")).toBe("\\# not a heading");
    expect(escapeMarkdownText("support@pinout.dev")).toBe("support@pinout.dev");
  });
});

describe("Markdown rendering", () => {
  it("gives h2 and h3 stable, unique slug ids and lists them in the table of contents", async () => {
    const doc = await render(
      "## Baud rate mismatch\n\ntext\n\n### 3.3 V versus 5 V\n\n## Baud rate mismatch\n\n## Main\n\n#### Deep\n",
    );
    expect(doc.html).toContain('<h2 id="baud-rate-mismatch">Baud rate mismatch</h2>');
    expect(doc.html).toContain('<h3 id="3-3-v-versus-5-v">3.3 V versus 5 V</h3>');
    expect(doc.html).toContain('<h2 id="baud-rate-mismatch-2">');
    // "main" is the page's own landmark id.
    expect(doc.html).toContain('<h2 id="main-2">');
    expect(doc.html).toContain("<h4>Deep</h4>");
    expect(doc.toc).toEqual([
      { id: "baud-rate-mismatch", text: "Baud rate mismatch", depth: 2 },
      { id: "3-3-v-versus-5-v", text: "3.3 V versus 5 V", depth: 3 },
      { id: "baud-rate-mismatch-2", text: "Baud rate mismatch", depth: 2 },
      { id: "main-2", text: "Main", depth: 2 },
    ]);
  });

  it("slugifies headings with code, punctuation and accents", async () => {
    expect(slugify("I2C, SPI and UART")).toBe("i2c-spi-and-uart");
    expect(slugify("Café — “quoted”")).toBe("cafe-quoted");
    const doc = await render("## Using `printf()` & <friends>\n");
    expect(doc.toc[0]).toEqual({
      id: "using-printf-friends",
      text: "Using printf() & <friends>",
      depth: 2,
    });
    expect(doc.html).toContain("<code>printf()</code> &amp;");
  });

  it("refuses an h1: the page title is the only one", async () => {
    await expect(render("# Title\n")).rejects.toThrow(/test\.md: "# Title": use "##"/);
  });

  it("highlights known languages with classes only, and escapes unknown ones as plain text", async () => {
    const styleToClass = transformerStyleToClass({ classPrefix: "hl-" });
    const doc = await renderMarkdown(
      "```c\nint main(void) { return 0; /* ok */ }\n```\n\n```nosuchlang\n<script>alert(1)</script>\n```\n\n```\nplain & simple\n```\n",
      { file: "t.md", styleToClass },
    );
    expect(doc.html).toMatch(/<pre class="shiki github-dark-default hl-[a-z0-9]+" tabindex="0">/);
    expect(doc.html).toContain(
      '<pre class="code-plain" tabindex="0"><code>&lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(doc.html).toContain("<code>plain &amp; simple");
    expect(doc.html).not.toMatch(/ style=|<style|<script/);
    const css = styleToClass.getCSS();
    expect(css).toMatch(/\.hl-[a-z0-9]+\{background-color:#[0-9a-f]{6}/i);
    for (const className of doc.html.match(/hl-[a-z0-9]+/g) ?? []) {
      expect(css).toContain(`.${className}{`);
    }
  });

  it("wraps tables in a focusable, labelled scrolling region", async () => {
    const doc = await render("| Mode | Clock |\n|---|---|\n| Fast | 400 kHz |\n");
    expect(doc.html).toContain(
      '<div class="table-scroll" role="region" aria-label="Table: Mode, Clock" tabindex="0">',
    );
    expect(doc.html).toContain("<td>400 kHz</td>");
  });

  it("extracts plain text and counts reading time at 200 words a minute, at least 1", async () => {
    const doc = await render("Some **bold** text.\n\n- one\n- `two`\n\n```c\nint x;\n```\n");
    expect(doc.plainText).toBe("Some bold text. one two int x;");
    expect(countWords("one two, three — 4")).toBe(4);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(250)).toBe(1);
    expect(readingMinutes(350)).toBe(2);
    expect(readingMinutes(1635)).toBe(8);
    const long = await render(`${"word ".repeat(1000)}\n`);
    expect(long.wordCount).toBe(1000);
    expect(long.readingMinutes).toBe(5);
  });
});

describe("compileContent", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  function fixture(files: Record<string, string>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-content-"));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  }

  const post = (date: string, extra = "") =>
    `---\ntitle: "Post ${date}"\ndescription: "About ${date}."\ndate: ${date}\nauthor: "A"\ntags: ["x"]\n${extra}---\n\nBody.\n`;

  it("sorts posts newest first and names the welcome post after the product", async () => {
    const dir = fixture({
      "blog/welcome.md": post("2026-01-01"),
      "blog/later.md": post("2026-03-01"),
      "blog/middle.md": post("2026-02-01"),
      "legal/terms.md":
        '---\ntitle: "Terms"\ndescription: "d"\nupdated: 2026-11-20\n---\n\n{{company.legalName}} at {{site.url}}\n',
    });
    const bundle = await compileContent({ contentDir: dir, site, root: dir });
    expect(bundle.posts.map((p) => p.slug)).toEqual(["later", "middle", "welcome-to-pinout-blog"]);
    expect(bundle.legalPages[0]?.html).toBe("<p>Pinout Labs Private Limited at {{site.url}}</p>\n");
    expect(bundle.files).toHaveLength(4);
  });

  it("reports every broken file at once, each by name", async () => {
    const dir = fixture({
      "blog/good.md": post("2026-01-01"),
      "blog/no-date.md": '---\ntitle: "T"\ndescription: "D"\nauthor: "A"\ntags: []\n---\nx\n',
      "legal/bad.md": '---\ntitle: "T"\ndescription: "D"\nupdated: 2026-11-20\n---\n\n{{nope}}\n',
    });
    const error = await compileContent({ contentDir: dir, site, root: dir }).catch(
      (caught: unknown) => caught as Error,
    );
    expect(error).toBeInstanceOf(ContentError);
    expect((error as Error).message).toContain("Content has 2 problem(s)");
    expect((error as Error).message).toContain("blog/no-date.md: invalid front matter");
    expect((error as Error).message).toContain("legal/bad.md:7: unknown placeholder {{nope}}");
  });

  it("refuses two posts with the same slug", async () => {
    const dir = fixture({
      "blog/welcome.md": post("2026-01-01"),
      "blog/welcome-to-pinout-blog.md": post("2026-01-02"),
    });
    await expect(compileContent({ contentDir: dir, site, root: dir })).rejects.toThrow(
      /slug "welcome-to-pinout-blog" is already used/,
    );
  });

  describe("the real content", async () => {
    const bundle = await compileContent({
      contentDir: path.join(ROOT, "content"),
      site,
      root: ROOT,
    });
    const documents = [...bundle.posts, ...bundle.legalPages];

    it("compiles every file", () => {
      expect(bundle.posts.length).toBe(fs.readdirSync(path.join(ROOT, "content/blog")).length);
      expect(bundle.legalPages.map((page) => page.slug).sort()).toEqual([
        "contact",
        "cookies",
        "privacy",
        "refund",
        "shipping",
        "terms",
      ]);
    });

    it("has no inline style, style element or script in any rendered HTML", () => {
      for (const doc of documents) {
        expect(doc.html, doc.source).not.toContain(" style=");
        expect(doc.html, doc.source).not.toContain("<style");
        expect(doc.html, doc.source).not.toContain("<script");
      }
    });

    it("leaves no placeholder but {{site.url}} in the legal pages", () => {
      for (const page of bundle.legalPages) {
        expect(page.html.replaceAll("{{site.url}}", ""), page.source).not.toContain("{{");
        expect(page.html, page.source).toContain("Pinout");
      }
      expect(bundle.legalPages.find((page) => page.slug === "contact")?.html).toContain(
        "Pinout Labs Private Limited",
      );
    });

    it("highlights the C, C++, Bash and Python blocks", () => {
      const html = bundle.posts.map((p) => p.html).join("\n");
      const fences = bundle.posts
        .map((p) => fs.readFileSync(path.join(ROOT, p.source), "utf8"))
        .join("\n")
        .match(/^```(c|cpp|bash|python)$/gm);
      expect(fences?.length).toBeGreaterThan(0);
      expect(html.match(/<pre class="shiki /g)?.length).toBe(fences?.length);
      expect(html).not.toContain('class="code-plain"');
    });

    it("keeps every code colour readable: 4.5:1 or more on the block's background", () => {
      const rules = [...bundle.css.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? "");
      const background = rules
        .map((rule) => /background-color:(#[0-9a-f]{6})/i.exec(rule)?.[1])
        .find(Boolean);
      expect(background).toBeTruthy();
      const colours = rules
        .map((rule) => /(?:^|;)color:(#[0-9a-f]{6})/i.exec(rule)?.[1])
        .filter((colour): colour is string => Boolean(colour));
      expect(colours.length).toBeGreaterThan(3);
      for (const colour of colours) {
        expect(contrast(colour, background!), colour).toBeGreaterThanOrEqual(4.5);
      }
    });
  });
});

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
