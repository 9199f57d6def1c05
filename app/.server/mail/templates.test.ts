/**
 * Issue 34, point 10: a mail never grows wider than its column. Every message goes through one
 * layout, so one long link checks them all: each paragraph may break a word anywhere, and the
 * pasted-link fallback breaks the link itself.
 */
import { describe, expect, it } from "vitest";
import { verifyEmailMessage } from "./templates";

describe("the mail layout", () => {
  const url = `https://pinout.example/api/auth/verify-email?token=${"x".repeat(400)}&callbackURL=%2Faccount`;
  const mail = verifyEmailMessage({ to: `${"a".repeat(60)}@example.com`, name: "Asha", url });

  it("lets every paragraph wrap a long word or link", () => {
    const paragraphs = [...mail.html.matchAll(/<p( style="([^"]*)")?>/g)];
    expect(paragraphs.length).toBeGreaterThan(4);
    const unwrapped = paragraphs
      .map((match) => match[2] ?? "")
      .filter((style, index) => index > 0 && !style.includes("overflow-wrap:anywhere"));
    // The product name heading (the first) is short and fixed; every other paragraph wraps.
    expect(unwrapped).toEqual([]);
  });

  it("breaks the pasted-link fallback inside the link", () => {
    const fallback = /<p style="([^"]*)">Or paste this link into your browser: ([^<]*)<\/p>/.exec(
      mail.html,
    );
    expect(fallback?.[1]).toContain("word-break:break-all");
    expect(fallback?.[2]).toContain("x".repeat(400));
  });
});
