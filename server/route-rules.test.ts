import { describe, expect, it } from "vitest";
import { hasDotSegment, requestPathname } from "./route-rules";

describe("request paths as React Router sees them", () => {
  it("finds every spelling of a dot segment the URL parser would resolve", () => {
    for (const path of [
      "/api/webhooks/razorpay/../../desktop/token",
      "/api/webhooks/razorpay/%2e%2e/%2E%2E/desktop/token",
      "/api/webhooks/razorpay/.%2e/desktop/token",
      "/api/./desktop/token",
      "/api/webhooks/razorpay\\..\\..\\desktop/token",
      "/..",
      "/a/.",
    ]) {
      expect(hasDotSegment(path), path).toBe(true);
      // …and each one really routes elsewhere than it is spelt, which is why it is refused.
      expect(requestPathname(path), path).not.toBe(path.split("?")[0]);
    }
  });

  it("lets ordinary paths through, dots inside names and in the query included", () => {
    for (const path of [
      "/",
      "/releases/1.4.0/Pinout-1.4.0.dmg",
      "/blog/.well-known-post",
      "/.well-known/jwks.json",
      "/admin/releases.data",
      "/search?q=../../etc",
      "/updates/stable/latest.yml?v=..",
      "/a/...",
    ]) {
      expect(hasDotSegment(path), path).toBe(false);
    }
    expect(requestPathname("/releases/1.4.0/a.dmg?x=1")).toBe("/releases/1.4.0/a.dmg");
  });
});
