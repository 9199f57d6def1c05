import { describe, expect, it } from "vitest";
import { pageHref, pageWindow, requestedPage } from "./paging";

describe("admin list paging", () => {
  it("clamps the page into the pages that exist", () => {
    expect(pageWindow(1, 0, 25)).toEqual({ page: 1, pageCount: 1, offset: 0 });
    expect(pageWindow(2, 26, 25)).toEqual({ page: 2, pageCount: 2, offset: 25 });
    expect(pageWindow(9, 50, 25)).toEqual({ page: 2, pageCount: 2, offset: 25 });
    expect(pageWindow(0, 50, 25)).toEqual({ page: 1, pageCount: 2, offset: 0 });
  });

  it("reads ?page= as a whole number from 1", () => {
    expect(requestedPage(new URLSearchParams("page=3"))).toBe(3);
    for (const bad of ["page=0", "page=-2", "page=abc", "page=1.5", "page=1e400", ""])
      expect(requestedPage(new URLSearchParams(bad)), bad).toBe(1);
  });

  it("links to another page keeping the filters, with one address for page 1", () => {
    const filters = { status: "active", plan: "", q: "asha@example.com" };
    expect(pageHref("/admin/subscriptions", filters, 2)).toBe(
      "/admin/subscriptions?status=active&q=asha%40example.com&page=2",
    );
    expect(pageHref("/admin/subscriptions", filters, 1)).toBe(
      "/admin/subscriptions?status=active&q=asha%40example.com",
    );
    expect(pageHref("/admin/users", { q: "" }, 1)).toBe("/admin/users");
  });
});
