import { describe, expect, it } from "vitest";
import { renderReleaseNotes } from "./notes.server";

describe("renderReleaseNotes", () => {
  it("renders Markdown lists and code", () => {
    const html = renderReleaseNotes("- Faster flashing\n- `esptool` 4.8");
    expect(html).toContain("<li>Faster flashing</li>");
    expect(html).toContain("<code>esptool</code>");
  });

  it("shows raw HTML as text", () => {
    const html = renderReleaseNotes('Hello <script>alert(1)</script> <img src=x onerror="x()">');
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
  });

  it("keeps web links and drops script links", () => {
    const html = renderReleaseNotes("[site](https://pinout.dev) [bad](javascript:alert(1))");
    expect(html).toContain('<a href="https://pinout.dev">site</a>');
    expect(html).not.toContain("javascript:");
  });
});
