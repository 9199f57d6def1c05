// Issue 33, point 10: every chart has labelled axes. Rendered to HTML as the server sends it.
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatInr } from "~/lib/money";
import { ColumnChart } from "./charts";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("ColumnChart", () => {
  it("names both axes and shows the vertical range and the first and last period", () => {
    const html = renderToString(
      <ColumnChart
        summary="MRR per month"
        points={[
          { label: "Sep 2026", value: 69_900 },
          { label: "Oct 2026", value: 1_18_476 },
          { label: "Nov 2026", value: 0 },
        ]}
        xTitle="Month"
        yTitle="MRR (₹, GST included)"
        formatValue={formatInr}
      />,
    );
    // The vertical axis, the columns' own titles, then the horizontal axis.
    expect(text(html)).toBe(
      "MRR (₹, GST included) ₹1,184.76 ₹0 Sep 2026: ₹699 Oct 2026: ₹1,184.76 Nov 2026: ₹0 Sep 2026 Month Nov 2026",
    );
    expect(html).toContain('aria-label="MRR per month"');
  });

  it("shows one period once", () => {
    const html = renderToString(
      <ColumnChart
        summary="Visitors"
        points={[{ label: "28 Nov", value: 3 }]}
        xTitle="Day"
        yTitle="Visitors"
      />,
    );
    expect(text(html)).toBe("Visitors 3 0 28 Nov: 3 28 Nov Day");
  });
});
