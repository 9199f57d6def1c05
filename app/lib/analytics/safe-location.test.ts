import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyticsLocation } from "./safe-location";

const SITE = "https://pinout.dev";

describe("analyticsLocation", () => {
  it("keeps the path and harmless parameters only", () => {
    expect(analyticsLocation(`${SITE}/search?q=esp32&utm_source=hn&email=a%40b.c`)).toEqual({
      location: `${SITE}/search?q=esp32&utm_source=hn`,
      path: "/search",
    });
    expect(analyticsLocation(`${SITE}/pricing?billing=yearly`)?.location).toBe(
      `${SITE}/pricing?billing=yearly`,
    );
    expect(analyticsLocation(`${SITE}/blog/post#intro`)?.location).toBe(`${SITE}/blog/post`);
  });

  it("reports nothing for pages whose URL or content is secret", () => {
    expect(analyticsLocation(`${SITE}/login-success?token=abc`)).toBeNull();
    expect(analyticsLocation(`${SITE}/login-via?token=abc`)).toBeNull();
    expect(analyticsLocation(`${SITE}/auth?view=reset&token=abc`)).toBeNull();
    expect(analyticsLocation(`${SITE}/auth?token=abc`)).toBeNull();
    expect(analyticsLocation(`${SITE}/admin-fix-subscription?email=asha%40example.com`)).toBeNull();
    expect(analyticsLocation(`${SITE}/admin/users?q=asha`)).toBeNull();
    expect(analyticsLocation("not a url")).toBeNull();
  });

  it("never lets an unknown parameter through, whatever its name or value", () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1, maxLength: 20 })
          .filter((name) => !/^(q|plan|cycle|billing|view|utm_[a-z]{1,20})$/.test(name)),
        fc.string({ maxLength: 50 }),
        (name, value) => {
          const url = new URL(`${SITE}/pricing`);
          url.searchParams.set(name, value);
          expect(analyticsLocation(url.toString())?.location).toBe(`${SITE}/pricing`);
        },
      ),
    );
  });
});
