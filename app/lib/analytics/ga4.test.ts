import { describe, expect, it } from "vitest";
import { createGa4Sink, type PageAddress } from "./ga4";

/** Issue 25, point 10: GA4 gets the sanitised address the collector stores, or nothing. */
describe("the GA4 sink", () => {
  const sent: unknown[][] = [];
  const at = (href: string, referrer = ""): PageAddress => ({
    href: () => href,
    referrer: () => referrer,
  });
  const sinkAt = (address: PageAddress) => {
    sent.length = 0;
    return createGa4Sink(
      () =>
        (...args: unknown[]) =>
          sent.push(args),
      address,
    );
  };

  it("passes the sanitised page_location and referrer on every event, never the full URL", () => {
    const sink = sinkAt(
      at(
        "https://pinout.dev/checkout/complete?subscription=sub_123&plan=pro-monthly&utm_source=x",
        "https://pinout.dev/billing?email=asha%40example.com",
      ),
    );
    sink("cta_click", { cta_name: "buy", cta_location: "pricing" });
    expect(sent).toEqual([
      [
        "event",
        "cta_click",
        {
          cta_name: "buy",
          cta_location: "pricing",
          page_location: "https://pinout.dev/checkout/complete?plan=pro-monthly&utm_source=x",
          page_referrer: "https://pinout.dev/billing",
        },
      ],
    ]);
    expect(JSON.stringify(sent)).not.toMatch(/sub_123|asha/);
  });

  it("tells another site's referrer by its origin only", () => {
    const sink = sinkAt(at("https://pinout.dev/pricing", "https://mail.example/inbox?id=secret"));
    sink("view_pricing", {});
    expect(sent[0]?.[2]).toMatchObject({ page_referrer: "https://mail.example" });
  });

  it("sends nothing at all from the pages the collector does not report", () => {
    for (const href of [
      "https://pinout.dev/admin-fix-subscription?email=asha%40example.com",
      "https://pinout.dev/admin/users",
      "https://pinout.dev/login-via?token=abc",
      "https://pinout.dev/login-success?token=abc",
      "https://pinout.dev/auth?view=reset&token=abc",
    ]) {
      const sink = sinkAt(at(href));
      sink("exception", {
        error_type: "javascript_error",
        description: "x",
        location: "y",
        fatal: false,
      });
      expect(sent, href).toEqual([]);
    }
  });
});
