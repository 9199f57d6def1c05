import { acceptAnalytics, eventsSentByPage, flushEvents, recordEvents } from "./analytics-helpers";
import { expect, test, waitForHydration } from "./fixtures";

test("search from the navbar finds posts with highlighted matches, and reports the search", async ({
  page,
}) => {
  const sent = await recordEvents(page);
  await page.goto("/");
  await waitForHydration(page);
  await acceptAnalytics(page);
  const box = page.getByRole("search").getByLabel("Search the site");
  await box.fill("uart baud");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=uart\+baud$/);
  await expect(page.getByText(/^\d+ results? for/)).toBeVisible();
  const first = page.getByRole("main").getByRole("link", { name: /UART/i }).first();
  await expect(first).toBeVisible();
  await expect(page.locator("mark").first()).toBeVisible();
  await flushEvents(page);
  await expect
    .poll(() => sent.find((event) => event.name === "search")?.params)
    .toEqual({ search_term: "uart baud", results_count: expect.any(Number) });
});

test("a search with no match says so", async ({ page }) => {
  await page.goto("/search?q=zzzzqqq");
  await expect(page.getByText("No results for")).toBeVisible();
});

test("a blog post renders with its table of contents and highlighted code", async ({ page }) => {
  await page.goto("/blog");
  await page.getByRole("heading", { name: /UART/i }).getByRole("link").click();
  await expect(page).toHaveURL(/\/blog\/debugging-uart-with-a-serial-monitor$/);
  await expect(page.locator("pre.shiki").first()).toBeVisible();
  await expect(page.locator("nav[aria-labelledby=toc-heading]")).toBeVisible();
});

test("withdrawing consent on the cookie policy stops sending at once", async ({ page }) => {
  const sent = await recordEvents(page);
  await page.goto("/legal/cookies");
  await waitForHydration(page);
  await acceptAnalytics(page);
  await expect(page.getByRole("status").filter({ hasText: "Analytics is on" })).toBeVisible();
  await flushEvents(page);
  await expect.poll(() => sent.length).toBeGreaterThan(0);
  // What the page has handed over until now, all of which reaches the server.
  const before = (await eventsSentByPage(page)).length;
  await expect.poll(() => sent.length).toBe(before);
  await page.getByRole("button", { name: "Withdraw consent" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Analytics is off" })).toBeVisible();
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Pricing" })
    .click();
  await expect(page).toHaveURL(/\/pricing$/);
  await flushEvents(page);
  // The page handed nothing more to the browser (what it sends, it sends as it flushes)…
  expect(await eventsSentByPage(page)).toHaveLength(before);
  // …so nothing more can reach the server.
  expect(sent.length).toBe(before);
  expect((await page.context().cookies()).find((cookie) => cookie.name === "consent")?.value).toBe(
    "denied",
  );
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
});
