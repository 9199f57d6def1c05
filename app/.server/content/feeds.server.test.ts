import { posts } from "virtual:content";
import { describe, expect, it } from "vitest";
import { FEED_LIMIT, atomFeed, rssFeed } from "./feeds.server";
import { makePost, makePosts } from "./fixtures";
import { childText, childrenNamed, parseXml } from "../../../tests/support/xml";

const SITE = "https://pinout.example";

describe("the XML reader of the tests", () => {
  it("rejects what a feed reader would reject", () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n';
    expect(() => parseXml(`${head}<a><b></a></b>`)).toThrow(/invalid XML/);
    expect(() => parseXml(`${head}<a>fish & chips</a>`)).toThrow(/invalid XML/);
    expect(() => parseXml(`${head}<a x=1></a>`)).toThrow(/invalid XML/);
    expect(() => parseXml(`${head}<a></a><b/>`)).toThrow(/invalid XML|one root/);
    expect(() => parseXml("<a></a>")).toThrow(/declaration/);
    expect(parseXml(`${head}<a x="&lt;1&gt;">A &amp; B<b/></a>`)).toMatchObject({
      name: "a",
      attributes: { x: "<1>" },
      text: "A & B",
      children: [{ name: "b" }],
    });
  });
});

describe("RSS 2.0", () => {
  const rss = parseXml(rssFeed(SITE));
  const channel = childrenNamed(rss, "channel")[0]!;
  const items = childrenNamed(channel, "item");

  it("is a well-formed RSS 2.0 document describing the blog", () => {
    expect(rss.name).toBe("rss");
    expect(rss.attributes.version).toBe("2.0");
    expect(childText(channel, "title")).toBe("Pinout blog");
    expect(childText(channel, "link")).toBe(`${SITE}/blog`);
    expect(childText(channel, "description")).toBeTruthy();
    expect(childrenNamed(channel, "atom:link")[0]?.attributes).toMatchObject({
      href: `${SITE}/blog/rss.xml`,
      rel: "self",
    });
  });

  it("has one item per post, newest first, with absolute links and RFC 822 dates", () => {
    expect(items).toHaveLength(Math.min(posts.length, FEED_LIMIT));
    items.forEach((item, index) => {
      const post = posts[index]!;
      expect(childText(item, "title")).toBe(post.title);
      expect(childText(item, "link")).toBe(`${SITE}/blog/${post.slug}`);
      expect(childText(item, "guid")).toBe(`${SITE}/blog/${post.slug}`);
      expect(childText(item, "description")).toBe(post.description);
      expect(childText(item, "author")).toBe(`support@pinout.dev (${post.author})`);
      expect(childText(item, "pubDate")).toBe(new Date(`${post.date}T00:00:00Z`).toUTCString());
      expect(childrenNamed(item, "category").map((category) => category.text)).toEqual(post.tags);
      expect(childText(item, "content:encoded")).toBe(post.html);
    });
  });

  it("escapes markup and drops characters XML forbids", () => {
    const tricky = makePost({
      slug: "tricky",
      title: 'Pins <b>&</b> "quotes" \u0007bell',
      html: "<p>a &amp; b]]></p>",
    });
    const item = childrenNamed(
      childrenNamed(parseXml(rssFeed(SITE, [tricky])), "channel")[0]!,
      "item",
    )[0]!;
    expect(childText(item, "title")).toBe('Pins <b>&</b> "quotes" bell');
    expect(childText(item, "content:encoded")).toBe("<p>a &amp; b]]></p>");
    // Atom types its titles as HTML: the plain-text title arrives escaped, so it shows as typed.
    const entry = childrenNamed(parseXml(atomFeed(SITE, [tricky])), "entry")[0]!;
    expect(childText(entry, "title")).toBe("Pins &lt;b&gt;&amp;&lt;/b&gt; &quot;quotes&quot; bell");
  });

  it("keeps only the newest posts", () => {
    const many = makePosts(FEED_LIMIT + 5);
    const channel = childrenNamed(parseXml(rssFeed(SITE, many)), "channel")[0]!;
    expect(childrenNamed(channel, "item")).toHaveLength(FEED_LIMIT);
  });
});

describe("Atom 1.0", () => {
  const feed = parseXml(atomFeed(SITE));
  const entries = childrenNamed(feed, "entry");

  it("is a well-formed Atom feed with id, title, updated and links", () => {
    expect(feed.name).toBe("feed");
    expect(feed.attributes.xmlns).toBe("http://www.w3.org/2005/Atom");
    expect(childText(feed, "id")).toBe(`${SITE}/blog`);
    expect(childText(feed, "title")).toBe("Pinout blog");
    expect(childText(feed, "updated")).toBe(`${posts[0]!.date}T00:00:00.000Z`);
    const links = childrenNamed(feed, "link").map((link) => link.attributes);
    expect(links).toContainEqual({ rel: "self", href: `${SITE}/blog/atom.xml` });
    expect(links).toContainEqual({ rel: "alternate", href: `${SITE}/blog` });
  });

  it("has one entry per post with the required elements", () => {
    expect(entries).toHaveLength(Math.min(posts.length, FEED_LIMIT));
    entries.forEach((entry, index) => {
      const post = posts[index]!;
      const url = `${SITE}/blog/${post.slug}`;
      expect(childText(entry, "id")).toBe(url);
      expect(childText(entry, "title")).toBe(
        post.title.replace(/&/g, "&amp;").replace(/</g, "&lt;"),
      );
      expect(childText(entry, "updated")).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      expect(childrenNamed(entry, "link")[0]?.attributes.href).toBe(url);
      expect(childText(childrenNamed(entry, "author")[0]!, "name")).toBe(post.author);
      expect(childText(entry, "summary")).toBe(post.description);
      const content = childrenNamed(entry, "content")[0]!;
      expect(content.attributes.type).toBe("html");
      expect(content.text).toBe(post.html);
    });
  });

  it("is still valid with no posts", () => {
    const empty = parseXml(atomFeed(SITE, []));
    expect(childrenNamed(empty, "entry")).toHaveLength(0);
    expect(childText(empty, "updated")).toBe("1970-01-01T00:00:00.000Z");
  });
});
