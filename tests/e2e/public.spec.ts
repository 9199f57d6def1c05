import { acceptAnalytics, eventsSentByPage, flushEvents, recordEvents } from "./analytics-helpers";
import { expect, test, waitForHydration } from "./fixtures";

const MAC_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const WINDOWS_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const LINUX_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

test.describe("pricing", () => {
  test("switches between monthly and yearly prices in rupees", async ({ page }) => {
    await page.goto("/pricing");
    await waitForHydration(page);
    const price = page.getByTestId("pro-price");
    await expect(price).toContainText("₹699");
    await expect(price).toContainText("per month");
    await page.getByRole("link", { name: /Yearly/ }).click();
    await expect(page).toHaveURL(/billing=yearly/);
    await expect(price).toContainText("₹6,999");
    await expect(price).toContainText("per year");
    await expect(page.getByText("All prices include 18% GST.")).toBeVisible();
  });

  test("reports the view, the FAQ questions opened and the plan chosen", async ({ page }) => {
    const sent = await recordEvents(page);
    await page.goto("/pricing");
    await waitForHydration(page);
    await acceptAnalytics(page);
    const question = page.getByText("Do the prices include GST?");
    await question.click();
    await expect(page.getByText("Every price shown includes 18% GST.")).toBeVisible();
    await flushEvents(page);
    await expect
      .poll(() => sent.map((event) => event.name))
      .toEqual(expect.arrayContaining(["page_view", "faq_click"]));
    expect(sent.find((event) => event.name === "faq_click")?.params).toEqual({
      question: "Do the prices include GST?",
      section: "pricing",
    });
    await page.getByRole("link", { name: "Choose Pro monthly" }).click();
    await expect(page).toHaveURL(/\/auth\?view=signup/);
    await flushEvents(page);
    await expect
      .poll(() => sent.find((event) => event.name === "plan_select")?.params)
      .toEqual({ plan_name: "Pro (monthly)", plan_price: 699, billing_cycle: "monthly" });
  });
});

test.describe("download page", () => {
  for (const [system, ua, first, second] of [
    ["Mac", MAC_UA, "Download for Mac (.dmg)", "Download for Windows (.exe)"],
    ["Windows", WINDOWS_UA, "Download for Windows (.exe)", "Download for Mac (.dmg)"],
  ] as const) {
    test.describe(`on ${system}`, () => {
      test.use({ userAgent: ua });
      test(`offers the ${system} installer first`, async ({ page }) => {
        await page.goto("/download");
        const buttons = page.getByRole("main").getByRole("link", { name: /^Download for/ });
        await expect(buttons.nth(0)).toHaveText(first);
        await expect(buttons.nth(1)).toHaveText(second);
        await expect(buttons.nth(0)).toHaveClass(/btn-primary/);
      });
    });
  }

  test.describe("on Linux", () => {
    test.use({ userAgent: LINUX_UA });
    test("offers both installers and says which systems are supported", async ({ page }) => {
      const sent = await recordEvents(page);
      await page.goto("/download");
      await waitForHydration(page);
      await expect(page.getByText("runs on Mac and Windows")).toBeVisible();
      await expect(page.getByRole("main").getByRole("link", { name: /^Download for/ })).toHaveCount(
        2,
      );
      await acceptAnalytics(page);
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download for Windows (.exe)" }).click();
      expect((await download).suggestedFilename()).toMatch(/\.exe$/);
      await flushEvents(page);
      await expect
        .poll(() => sent.find((event) => event.name === "app_download")?.params)
        .toEqual({ platform: "windows", file_extension: "exe" });
    });
  });
});

test.describe("feedback", () => {
  // The browser logs the 400 answer to a form with errors.
  test.use({ allowConsoleErrors: /status of 400/ });
  test("sends a message with JavaScript, showing errors next to the fields first", async ({
    page,
  }) => {
    const sent = await recordEvents(page);
    await page.goto("/feedback");
    await waitForHydration(page);
    await acceptAnalytics(page);
    await page.getByLabel("Your email").fill("not-an-email");
    await page.getByRole("button", { name: "Send feedback" }).click();
    await expect(page.getByText("Enter an email address like name@example.com.")).toBeVisible();
    await expect(page.getByText("Write at least 10 characters.")).toBeVisible();
    await page.getByLabel("Your email").fill("maya@example.com");
    await page.getByLabel("What is it about?").selectOption("feature");
    await page.getByLabel("Message").fill("Please add the Raspberry Pi Pico 2 W pin map.");
    await page.getByLabel("4").check();
    await page.getByRole("button", { name: "Send feedback" }).click();
    await expect(page.getByText("your message has reached the team")).toBeVisible();
    await flushEvents(page);
    await expect
      .poll(() =>
        sent
          .filter((event) => event.name.startsWith("form_"))
          .map(({ name, params }) => ({ name, params })),
      )
      .toEqual([
        { name: "form_start", params: { form_name: "feedback" } },
        { name: "form_submit", params: { form_name: "feedback", success: false } },
        { name: "form_submit", params: { form_name: "feedback", success: true } },
      ]);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("works as a plain form post", async ({ page }) => {
      await page.goto("/feedback");
      await page.getByLabel("Your email").fill("ravi@example.com");
      await page.getByLabel("Message").fill("short");
      await page.getByRole("button", { name: "Send feedback" }).click();
      await expect(page.getByText("Choose what your message is about.")).toBeVisible();
      await expect(page.getByText("Write at least 10 characters.")).toBeVisible();
      await expect(page.getByLabel("Your email")).toHaveValue("ravi@example.com");
      await page.getByLabel("What is it about?").selectOption("bug");
      await page.getByLabel("Message").fill("Flashing an STM32 over DFU stops at 99%.");
      await page.getByRole("button", { name: "Send feedback" }).click();
      await expect(page).toHaveURL(/\/feedback\?sent=1$/);
      await expect(page.getByText("your message has reached the team")).toBeVisible();
    });
  });
});

test.describe("analytics consent", () => {
  test("sends nothing before a choice or after declining", async ({ page }) => {
    const sent = await recordEvents(page);
    await page.goto("/");
    await waitForHydration(page);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Pricing" })
      .click();
    await flushEvents(page);
    await page
      .getByRole("region", { name: "Cookie consent" })
      .getByRole("button", { name: "Decline" })
      .click();
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Feedback" })
      .click();
    await flushEvents(page);
    // The page handed nothing to the browser (what it sends, it sends as it flushes), so nothing
    // can reach the server either.
    expect(await eventsSentByPage(page)).toEqual([]);
    expect(sent).toEqual([]);
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).toEqual(["consent"]);
    // The choice is remembered.
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("region", { name: "Cookie consent" })).toHaveCount(0);
  });

  test("after accepting, page views and navigations are sent", async ({ page }) => {
    const sent = await recordEvents(page);
    await page.goto("/");
    await waitForHydration(page);
    await acceptAnalytics(page);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Pricing" })
      .click();
    await expect(page).toHaveURL(/\/pricing$/);
    await flushEvents(page);
    await expect
      .poll(() =>
        sent.filter((event) => event.name === "page_view").map((event) => event.params.page_path),
      )
      .toEqual(["/", "/pricing"]);
    expect(sent.find((event) => event.name === "navigation")?.params).toEqual({
      from_page: "/",
      to_page: "/pricing",
      method: "link",
    });
    expect(sent.find((event) => event.name === "view_pricing")).toBeTruthy();
  });
});
