import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, expectNoAxeViolations, signUpAndVerify, test } from "./fixtures";
import { E2E_RELEASES_ADMIN_EMAIL } from "./env";

const FIFTY_MB = 50 * 1024 * 1024;

test.describe("publishing a release in the admin area", () => {
  test.setTimeout(120_000);

  test("an admin uploads a 50 MB installer with a progress bar, publishes, and the site keeps serving", async ({
    page,
    context,
  }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-e2e-upload-"));
    const installer = path.join(dir, "Pinout-7.0.0.dmg");
    fs.writeFileSync(installer, Buffer.alloc(FIFTY_MB, 7));

    await signUpAndVerify(page, {
      name: "Release Manager",
      email: E2E_RELEASES_ADMIN_EMAIL,
      password: "releases-password-1",
    });
    await page.goto("/admin/releases");
    await expectNoAxeViolations(page);
    await page.getByLabel("Version", { exact: true }).fill("7.0.0");
    await page.getByLabel("Release notes (Markdown)").fill("- Big release.");
    await page.getByRole("button", { name: "Create draft" }).click();
    await expect(page.getByRole("heading", { name: "Release 7.0.0" })).toBeVisible();
    await expect(page.getByText("Draft", { exact: false }).first()).toBeVisible();

    // Throttle the upload so its progress can be watched.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 25 * 1024 * 1024,
    });
    await page.getByLabel(/^Files \(/).setInputFiles(installer);
    await page.getByRole("button", { name: "Upload" }).click();
    const bar = page.getByRole("progressbar", { name: "Upload of Pinout-7.0.0.dmg" });
    await expect(bar).toBeVisible();
    const seen = new Set<number>();
    // The site keeps answering while the upload streams.
    const other = await context.request.get("/pricing");
    expect(other.status()).toBe(200);
    await expect
      .poll(
        async () => {
          seen.add(Number(await bar.getAttribute("value")));
          return seen.size;
        },
        { timeout: 60_000, intervals: [100] },
      )
      .toBeGreaterThanOrEqual(3);
    await expect(page.getByText("Uploaded")).toBeVisible({ timeout: 90_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(page.getByRole("cell", { name: "Pinout-7.0.0.dmg", exact: true })).toBeVisible();

    await page.getByLabel("Share of apps offered the update (%)").fill("100");
    await page.getByRole("button", { name: "Publish" }).click();
    await expect(page.getByText("Published to 100% of apps.")).toBeVisible();
    await expectNoAxeViolations(page);

    await page.goto("/download/history");
    await expect(page.getByRole("heading", { name: "7.0.0" })).toBeVisible();
    const head = await context.request.head("/download/mac/7.0.0");
    expect(head.status()).toBe(200);
    expect(Number(head.headers()["content-length"])).toBe(FIFTY_MB);
  });

  test("a signed-in non-admin cannot upload (403)", async ({ page }) => {
    await signUpAndVerify(page, {
      name: "Visitor",
      email: `visitor-${Date.now()}@example.com`,
      password: "visitor-password-1",
    });
    const response = await page.request.put(
      "/api/admin/releases/00000000-0000-0000-0000-000000000000/files/x.dmg",
      { data: Buffer.alloc(10), headers: { origin: new URL(page.url()).origin } },
    );
    expect(response.status()).toBe(403);
  });
});
