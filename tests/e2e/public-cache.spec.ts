import { DESKTOP, expect, test, waitForHydration } from "./fixtures";

test.use({ viewport: DESKTOP });

test("a public page served from the shared cache runs under its CSP and hydrates", async ({
  page,
}) => {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) =>
      violations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  // The first visit renders and stores the page; the second is answered from memory.
  await page.request.get("/pricing");
  const response = await page.goto("/pricing");
  expect(response?.headers()["etag"]).toMatch(/^W\/"/);
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
  expect(csp).not.toContain("unsafe-inline");

  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  // A client-side navigation: the page was hydrated, so the same document is still loaded.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
  expect(
    await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
});

test("a page's scripts start loading only after its first paint, and it still hydrates", async ({
  page,
}) => {
  await page.goto("/legal/terms");
  await waitForHydration(page);
  const timing = await page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1;
    const scripts = performance
      .getEntriesByType("resource")
      .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
      .map((entry) => entry.startTime);
    return { paint, scripts };
  });
  expect(timing.paint).toBeGreaterThan(0);
  expect(timing.scripts.length).toBeGreaterThan(3);
  for (const start of timing.scripts) expect(start).toBeGreaterThanOrEqual(timing.paint);
});
