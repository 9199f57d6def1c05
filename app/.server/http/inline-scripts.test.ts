import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "./inline-scripts";

const sha = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;

describe("inline script hashes", () => {
  it("hashes the exact text of each inline script the browser runs, once", () => {
    const html = [
      "<script>window.a = 1;</script>",
      '<script type="module">import "/assets/x.js";\n</script>',
      "<script>window.a = 1;</script>",
      '<script type="text/javascript">ü()</script>',
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([
      sha("window.a = 1;"),
      sha('import "/assets/x.js";\n'),
      sha("ü()"),
    ]);
  });

  it("skips external scripts and data blocks", () => {
    const html =
      '<script src="/assets/a.js"></script><script type="application/ld+json">{"a":1}</script>' +
      "<script async src='/b.js'></script><script type=text/plain>x</script>";
    expect(inlineScriptHashes(html)).toEqual([]);
  });

  it("matches the base64 form CSP expects", () => {
    // The example from the CSP specification's hash-source section.
    expect(inlineScriptHashes("<script>alert('Hello, world.');</script>")).toEqual([
      "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=",
    ]);
  });
});
