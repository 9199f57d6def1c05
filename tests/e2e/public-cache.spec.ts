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

test("a page's stylesheets are requested before any of its scripts, and it still hydrates", async ({
  page,
}) => {
  // Decision 0026: the first paint waits for the stylesheets, not for the scripts, so they go first.
  await page.goto("/legal/terms");
  await waitForHydration(page);
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource");
    const starts = (extension: string) =>
      resources
        .filter((entry) => new URL(entry.name).pathname.endsWith(extension))
        .map((entry) => entry.startTime);
    return { styles: starts(".css"), scripts: starts(".js") };
  });
  expect(timing.styles.length).toBe(2);
  expect(timing.scripts.length).toBeGreaterThan(3);
  const lastStyle = Math.max(...timing.styles);
  for (const start of timing.scripts) expect(start).toBeGreaterThanOrEqual(lastStyle);
});
