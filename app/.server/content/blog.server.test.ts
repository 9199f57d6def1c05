import { posts } from "virtual:content";
import { describe, expect, it } from "vitest";
import {
  POSTS_PER_PAGE,
  adjacentPosts,
  findPost,
  listPosts,
  parsePage,
  tagCounts,
} from "./blog.server";
import { makePosts } from "./fixtures";

describe("the compiled posts (virtual:content)", () => {
  it("are sorted newest first", () => {
    const dates = posts.map((post) => post.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(posts.length).toBeGreaterThanOrEqual(5);
  });

  it("include the welcome post under the product's slug", () => {
    const welcome = findPost("welcome-to-pinout-blog");
    expect(welcome?.title).toBe("Welcome to the Pinout blog");
    expect(welcome?.readingMinutes).toBeGreaterThanOrEqual(1);
    expect(findPost("welcome")).toBeUndefined();
  });

  it("find the UART post by its file name", () => {
    const post = findPost("debugging-uart-with-a-serial-monitor");
    expect(post?.tags).toContain("uart");
    expect(post?.toc.filter((entry) => entry.depth === 2).length).toBeGreaterThanOrEqual(4);
    expect(post?.html).toContain('<h2 id="baud-rate-mismatch">');
  });
});

describe("parsePage", () => {
  it("reads plain positive integers and defaults to page 1", () => {
    expect(parsePage(null)).toBe(1);
    expect(parsePage("1")).toBe(1);
    expect(parsePage("12")).toBe(12);
  });

  it.each(["", "0", "-1", "1.5", "2abc", "01", " 2", "9999999"])("refuses %j", (value) => {
    expect(parsePage(value)).toBeNull();
  });
});

describe("listPosts", () => {
  const many = makePosts(25);

  it("shows 10 posts a page, newest first, with the page count", () => {
    const first = listPosts({ page: 1 }, many);
    expect(first?.posts.map((post) => post.slug)).toEqual(
      Array.from({ length: POSTS_PER_PAGE }, (_, index) => `post-${index + 1}`),
    );
    expect(first).toMatchObject({ page: 1, pageCount: 3, total: 25, tag: null });
    const last = listPosts({ page: 3 }, many);
    expect(last?.posts.map((post) => post.slug)).toEqual([
      "post-21",
      "post-22",
      "post-23",
      "post-24",
      "post-25",
    ]);
  });

  it("answers null for a page past the end or below 1", () => {
    expect(listPosts({ page: 4 }, many)).toBeNull();
    expect(listPosts({ page: 0 }, many)).toBeNull();
    expect(listPosts({ page: 2 }, makePosts(10))).toBeNull();
  });

  it("has one empty first page when there are no posts", () => {
    expect(listPosts({ page: 1 }, [])).toMatchObject({ posts: [], pageCount: 1, total: 0 });
  });

  it("filters by tag and paginates the filtered list", () => {
    const odd = listPosts({ page: 1, tag: "odd" }, many);
    expect(odd?.total).toBe(9);
    expect(odd?.pageCount).toBe(1);
    expect(odd?.posts.every((post) => post.tags.includes("odd"))).toBe(true);
    expect(odd?.posts[0]?.slug).toBe("post-1");
    expect(listPosts({ page: 3, tag: "all" }, many)?.posts).toHaveLength(5);
  });

  it("answers null for a tag no post has; an empty tag means no filter", () => {
    expect(listPosts({ page: 1, tag: "nope" }, many)).toBeNull();
    expect(listPosts({ page: 1, tag: "" }, many)?.total).toBe(25);
  });

  it("lists summaries without the body", () => {
    const summary = listPosts({ page: 1 }, many)?.posts[0];
    expect(summary).not.toHaveProperty("html");
    expect(summary).toMatchObject({ slug: "post-1", readingMinutes: 1 });
  });
});

describe("adjacentPosts and tagCounts", () => {
  const few = makePosts(3);

  it("links the older post as previous and the newer one as next", () => {
    expect(adjacentPosts("post-2", few)).toEqual({
      previous: { slug: "post-3", title: "Post post-3" },
      next: { slug: "post-1", title: "Post post-1" },
    });
    expect(adjacentPosts("post-1", few).next).toBeNull();
    expect(adjacentPosts("post-3", few).previous).toBeNull();
    expect(adjacentPosts("missing", few)).toEqual({ previous: null, next: null });
  });

  it("counts tags, most used first", () => {
    expect(tagCounts(few)).toEqual([
      { tag: "all", count: 3 },
      { tag: "odd", count: 1 },
    ]);
    const real = tagCounts();
    expect(real.find((entry) => entry.tag === "stm32")?.count).toBeGreaterThanOrEqual(3);
  });
});
