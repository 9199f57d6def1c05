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
  await page.addInitScript(keepPageSends);
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

declare global {
  interface Window {
    /** The bodies this document handed to the browser for /api/events (see `keepPageSends`). */
    __analyticsSends?: (Blob | string)[];
  }
}

/**
 * Runs in the page before its own scripts: keeps every body the page hands to sendBeacon (or to
 * fetch, the collector's fallback) for /api/events, at the moment it does.
 */
function keepPageSends() {
  const sends: (Blob | string)[] = [];
  window.__analyticsSends = sends;
  const isEvents = (url: unknown) => String(url).includes("/api/events");
  const beacon = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, data) => {
    if (isEvents(url)) sends.push(data instanceof Blob ? data : String(data));
    return beacon(url, data);
  };
  const fetchOriginal = window.fetch.bind(window);
  window.fetch = (input, init) => {
    if (isEvents(input instanceof Request ? input.url : input) && init?.body)
      sends.push(String(init.body));
    return fetchOriginal(input, init);
  };
}

/**
 * Every event this document has sent so far, read in the page. The collector sends at once when
 * it flushes, so right after `flushEvents` this is the whole story: a test proves that nothing was
 * sent without waiting for a request that may or may not come (recordEvents must have been called
 * before the page was opened).
 */
export async function eventsSentByPage(page: Page): Promise<SentEvent[]> {
  const bodies = await page.evaluate(() =>
    Promise.all(
      (window.__analyticsSends ?? []).map((body) =>
        typeof body === "string" ? body : body.text(),
      ),
    ),
  );
  return bodies.flatMap((body) => (JSON.parse(body) as { events: SentEvent[] }).events);
}

/**
 * Resolves once the page has run the tasks it had queued so far (a timer set to 0 runs after every
 * timer set to 0 before it): an effect that tracks one task later has tracked by then.
 */
export async function pageTasksRun(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}
