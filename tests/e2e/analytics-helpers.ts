import type { Page } from "@playwright/test";

export interface SentEvent {
  name: string;
  params: Record<string, unknown>;
}

/**
 * Records every analytics batch the page sends, then lets it through to the server. A route sees
 * the body of a sendBeacon request, which the plain request event does not.
 */
export async function recordEvents(page: Page): Promise<SentEvent[]> {
  const sent: SentEvent[] = [];
  await page.route("**/api/events", async (route) => {
    const body = route.request().postData();
    if (body) sent.push(...(JSON.parse(body) as { events: SentEvent[] }).events);
    await route.continue();
  });
  return sent;
}

/** Makes the collector send what it has queued now (it also does every 5 s and on leaving). */
export async function flushEvents(page: Page) {
  await page.evaluate(() => window.dispatchEvent(new Event("pagehide")));
}

export async function acceptAnalytics(page: Page) {
  await page
    .getByRole("region", { name: "Cookie consent" })
    .getByRole("button", { name: "Accept analytics" })
    .click();
}
