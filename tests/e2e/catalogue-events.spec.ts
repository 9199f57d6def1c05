/**
 * Issue 24, point 5: the catalogue events that were typed but never sent (share, video_start,
 * video_complete, onboarding_step, onboarding_complete) are sent by the browser where they
 * happen, only with consent. feature_use is sent by the server: tests/integration/feature-use.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  acceptAnalytics,
  eventsSentByPage,
  flushEvents,
  pageTasksRun,
  recordEvents,
  type SentEvent,
} from "./analytics-helpers";
import {
  expect,
  expectNoAxeViolations,
  signUpAndVerify,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

const named = (sent: SentEvent[], ...names: string[]) =>
  sent.filter((event) => names.includes(event.name));

/** No horizontal scrolling at the page's current width. */
async function expectNoHorizontalScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test("sharing a blog post sends share only when a link was copied or shared", async ({
  page,
  context,
}) => {
  const slug = "welcome-to-pinout-blog";
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const sent = await recordEvents(page);
  await page.goto(`/blog/${slug}`);
  await waitForHydration(page);

  // Chromium on Linux has no share sheet: the button copies the link. Without consent, nothing goes.
  const copy = page.getByRole("button", { name: "Copy link to this post" });
  await copy.click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    new URL(`/blog/${slug}`, page.url()).href,
  );
  await acceptAnalytics(page);
  await copy.click();
  await flushEvents(page);
  await expect
    .poll(() => named(sent, "share"))
    .toEqual([
      {
        name: "share",
        params: { method: "copy_link", content_type: "blog_post", item_id: slug },
        at: expect.any(String),
      },
    ]);
  await expectNoAxeViolations(page);

  // Where the Web Share API exists it is used; closing the sheet shares nothing.
  await page.addInitScript(() => {
    let calls = 0;
    Object.defineProperty(navigator, "share", {
      configurable: true,
      value: async () => {
        calls += 1;
        if (calls === 1) throw new DOMException("Share canceled", "AbortError");
      },
    });
  });
  await page.reload();
  await waitForHydration(page);
  const share = page.getByRole("button", { name: "Share this post" });
  await share.click();
  await share.click();
  await flushEvents(page);
  await expect
    .poll(() => named(sent, "share").map((event) => event.params))
    .toEqual([
      { method: "copy_link", content_type: "blog_post", item_id: slug },
      { method: "web_share", content_type: "blog_post", item_id: slug },
    ]);
});

test("the landing page's tour is never its largest paint and reports start and end once", async ({
  page,
}) => {
  const sent = await recordEvents(page);
  // Tall enough that the video is in view at once: still no poster until the visitor acts.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await page.goto("/landing");
  await waitForHydration(page);
  const video = page.locator("video");
  await expect(video).toHaveAttribute("preload", "none");
  expect(await video.getAttribute("poster")).toBeNull();
  const largest = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1) as
            (PerformanceEntry & { element?: Element }) | undefined;
          resolve(last?.element?.tagName ?? "none");
        }).observe({ type: "largest-contentful-paint", buffered: true });
      }),
  );
  expect(largest).not.toBe("VIDEO");

  await acceptAnalytics(page);
  await expect(video).toHaveAttribute("poster", "/video/product-tour-poster.webp");
  await expect(video.locator("track")).toHaveAttribute("kind", "captions");
  await expectNoAxeViolations(page);

  // Play (muted: headless pages may not start sound), jump near the end, let it finish; a replay
  // in the same page view sends nothing more.
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
    element.currentTime = element.duration - 0.3;
  });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.ended)).toBe(true);
  await video.evaluate(async (element: HTMLVideoElement) => {
    element.currentTime = 0;
    await element.play();
    element.currentTime = element.duration - 0.3;
  });
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.ended)).toBe(true);
  await flushEvents(page);
  const params = { video_title: "Pinout in 12 seconds" };
  await expect
    .poll(() => named(sent, "video_start", "video_complete"))
    .toEqual([
      { name: "video_start", params, at: expect.any(String) },
      { name: "video_complete", params, at: expect.any(String) },
    ]);
});

/** What the desktop app does to sign in (handoff token for this browser's user, then PKCE). */
async function signInTheApp(page: Page): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const handoff = await page.request.post("/api/functions/generateAuthRedirectToken", {
    headers: { origin: new URL(page.url()).origin },
    data: {
      data: {
        redirect_uri: "http://127.0.0.1:53682/callback",
        state: "state-onboarding",
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
      },
    },
  });
  expect(handoff.status()).toBe(200);
  const { token } = ((await handoff.json()) as { result: { token: string } }).result;
  const exchanged = await page.request.post("/api/desktop/token", {
    data: {
      token,
      code_verifier: verifier,
      device_name: "Onboarding laptop",
      platform: "windows",
      app_version: "2.1.0",
    },
  });
  expect(exchanged.status()).toBe(200);
  return ((await exchanged.json()) as { access_token: string }).access_token;
}

test("the first-run checklist reports each step once and the end, with consent only", async ({
  page,
}) => {
  const sent = await recordEvents(page);
  await signUpAndVerify(page, {
    name: "Onboarding Meera",
    email: uniqueEmail("onboard"),
    password: "onboarding-password-1",
  });
  const checklist = page.getByRole("region", { name: "Get started with Pinout" });
  await expect(checklist.getByText("0 of 4 steps done")).toBeVisible();
  await expect(checklist.getByRole("link", { name: "download page" })).toHaveAttribute(
    "href",
    "/download",
  );
  await expect(checklist.getByRole("link", { name: "How signing in works" })).toHaveAttribute(
    "href",
    "/download#sign-in",
  );

  const access = await signInTheApp(page);
  await page.reload();
  await waitForHydration(page);
  await expect(checklist.getByText("2 of 4 steps done")).toBeVisible();
  await expect(
    checklist.getByRole("listitem").filter({ hasText: "Sign in from the app" }),
  ).toContainText("Done");
  await expect(
    checklist.getByRole("listitem").filter({ hasText: "First usage report" }),
  ).toContainText("To do");
  await page.setViewportSize({ width: 320, height: 720 });
  await expectNoHorizontalScroll(page);
  await expectNoAxeViolations(page);
  await flushEvents(page);
  // No consent yet: nothing has left the browser.
  expect(sent).toEqual([]);

  const onboarding = () =>
    named(sent, "onboarding_step", "onboarding_complete").map((event) => event.params);
  await acceptAnalytics(page);
  await flushEvents(page);
  await expect.poll(onboarding).toEqual([
    { step_name: "download_app", completed: true },
    { step_name: "sign_in_from_app", completed: true },
  ]);

  // The app reports usage (which is also its first visit since signing in): all done.
  const usage = await page.request.post("/api/desktop/usage", {
    headers: { authorization: `Bearer ${access}` },
    data: {
      events: [{ id: "e-1", feature: "pin_map", count: 1, at: new Date().toISOString() }],
    },
  });
  expect(usage.status()).toBe(200);
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Get started with Pinout" })).toHaveCount(0);
  await flushEvents(page);
  await expect
    .poll(onboarding)
    .toEqual([
      { step_name: "download_app", completed: true },
      { step_name: "sign_in_from_app", completed: true },
      { step_name: "device_seen", completed: true },
      { step_name: "first_usage_report", completed: true },
      { time_spent: expect.any(Number) },
    ]);

  // Another visit sends none of them again.
  const pageViews = named(sent, "page_view").length;
  await page.reload();
  await waitForHydration(page);
  await flushEvents(page);
  await expect.poll(() => named(sent, "page_view").length).toBeGreaterThan(pageViews);
  // The checklist decides one task after consent is known (before the navbar's session check
  // answers, which waitForHydration waited for): once the page has run its queued tasks, whatever
  // it tracked is queued, and a flush hands it over at once.
  await pageTasksRun(page);
  await flushEvents(page);
  expect(named(await eventsSentByPage(page), "page_view")).not.toEqual([]);
  expect(named(await eventsSentByPage(page), "onboarding_step", "onboarding_complete")).toEqual([]);
  expect(onboarding()).toHaveLength(5);

  // Issue 34: once per person ever, not per browser. This browser forgets everything it kept and
  // the account is visited three more times: the server has counted the events, so none is sent.
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  for (let visit = 0; visit < 3; visit += 1) {
    await page.reload();
    await waitForHydration(page);
    // A claim the page asked the server for would be in flight until now.
    await page.waitForLoadState("networkidle");
    await pageTasksRun(page);
    await flushEvents(page);
  }
  expect(named(sent, "onboarding_complete")).toHaveLength(1);
  expect(onboarding()).toHaveLength(5);
});
