import { describe, expect, it } from "vitest";
import { EVENT_NAMES, parseEvent } from "~/lib/analytics/catalogue";
import { parseBatch } from "./events.server";

describe("analytics catalogue", () => {
  it("knows every event of the spec", () => {
    expect(EVENT_NAMES).toEqual(
      expect.arrayContaining([
        "page_view",
        "purchase",
        "begin_checkout",
        "add_to_cart",
        "subscription_start",
        "subscription_cancel",
        "subscription_upgrade",
        "app_download",
        "cta_click",
        "feature_use",
        "video_start",
        "video_complete",
        "share",
        "form_start",
        "form_submit",
        "search",
        "navigation",
        "exception",
        "view_pricing",
        "plan_select",
        "faq_click",
        "onboarding_step",
        "onboarding_complete",
        "trial_start",
      ]),
    );
  });

  it("applies the spec's defaults", () => {
    expect(
      parseEvent("purchase", { value: 699, transaction_id: "pay_1", items: [] }),
    ).toMatchObject({
      ok: true,
      event: { params: { currency: "INR" } },
    });
    expect(
      parseEvent("exception", { error_type: "javascript_error", description: "x", location: "/" }),
    ).toMatchObject({
      ok: true,
      event: { params: { fatal: false } },
    });
    expect(parseEvent("faq_click", { question: "Do prices include GST?" })).toMatchObject({
      ok: true,
      event: { params: { section: "pricing" } },
    });
  });

  it("names the event and field that are wrong", () => {
    expect(parseEvent("app_download", { platform: "linux", file_extension: "dmg" })).toEqual({
      ok: false,
      error: expect.stringMatching(/^app_download\.platform: /),
    });
    expect(parseEvent("search", { search_term: "uart", results_count: "3" })).toEqual({
      ok: false,
      error: expect.stringMatching(/^search\.results_count: /),
    });
    expect(
      parseEvent("cta_click", { cta_name: "x", cta_location: "hero", extra: 1 }),
    ).toMatchObject({ ok: false });
    expect(parseEvent("made_up", {})).toEqual({ ok: false, error: 'unknown event "made_up"' });
  });
});

describe("parseBatch", () => {
  const now = new Date("2026-11-22T10:00:00.000Z");
  it("rejects the whole batch for one bad event", () => {
    const result = parseBatch(
      {
        events: [
          { name: "cta_click", params: { cta_name: "download", cta_location: "hero" } },
          { name: "nope", params: {} },
        ],
      },
      now,
    );
    expect(result).toEqual({ ok: false, error: 'events[1]: unknown event "nope"' });
  });

  it("refuses feature_use from a browser: the server records it from the app's reports", () => {
    expect(
      parseBatch(
        { events: [{ name: "feature_use", params: { feature_name: "flasher", count: 1000 } }] },
        now,
      ),
    ).toEqual({ ok: false, error: "events[0]: feature_use is recorded by the server only" });
  });

  it("keeps the client time unless it is more than a day off", () => {
    const result = parseBatch(
      {
        events: [
          {
            name: "cta_click",
            params: { cta_name: "a", cta_location: "b" },
            at: "2026-11-22T09:59:00.000Z",
          },
          {
            name: "cta_click",
            params: { cta_name: "a", cta_location: "b" },
            at: "2020-01-01T00:00:00.000Z",
          },
        ],
      },
      now,
    );
    expect(result.ok && result.events.map((event) => event.at.toISOString())).toEqual([
      "2026-11-22T09:59:00.000Z",
      "2026-11-22T10:00:00.000Z",
    ]);
  });

  it("limits the batch size", () => {
    const events = Array.from({ length: 51 }, () => ({
      name: "cta_click",
      params: { cta_name: "a", cta_location: "b" },
    }));
    expect(parseBatch({ events }, now)).toMatchObject({ ok: false });
    expect(parseBatch({ events: [] }, now)).toMatchObject({ ok: false });
  });

  // Issue 32, point 11: events could be dated a day ahead and move tomorrow's funnel.
  it("never dates an event ahead of its arrival, nor more than a day back", () => {
    const now = new Date("2026-11-27T10:00:00Z");
    const at = (iso: string) =>
      parseBatch({ events: [{ name: "faq_click", params: { question: "When?" }, at: iso }] }, now);
    const timeOf = (iso: string) => {
      const result = at(iso);
      return result.ok ? result.events[0]?.at.toISOString() : result.error;
    };
    expect(timeOf("2026-11-27T09:59:00Z")).toBe("2026-11-27T09:59:00.000Z");
    expect(timeOf("2026-11-27T10:00:30Z")).toBe("2026-11-27T10:00:30.000Z");
    expect(timeOf("2026-11-27T10:05:00Z")).toBe(now.toISOString());
    expect(timeOf("2026-11-28T09:00:00Z")).toBe(now.toISOString());
    expect(timeOf("2026-11-26T09:00:00Z")).toBe(now.toISOString());
    // An id in the body is not taken.
    const result = parseBatch(
      {
        clientId: "6f1c1c4e-8f0e-4d1a-9d4e-2b1f4a9c0e11",
        events: [{ name: "faq_click", params: { question: "Who?" } }],
      },
      now,
    );
    expect(result.ok && result.clientId).toBeNull();
  });
});
