import { randomUUID } from "node:crypto";
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pageTasksRun } from "./analytics-helpers";
import { BASE_URL } from "./env";
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  expect,
  expectNoAxeViolations,
  signUpAndVerify,
  test,
  uniqueEmail,
  waitForHydration,
} from "./fixtures";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Runs the reference desktop client; `opened` resolves with the URL it asks to open, if any. */
function desktopClient(args: string[], stateFile: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"),
      "scripts/desktop-client.ts",
      ...args,
      "--server",
      BASE_URL,
      "--state",
      stateFile,
    ],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  let onOpen: (url: string) => void = () => {};
  const opened = new Promise<string>((resolve) => (onOpen = resolve));
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    const match = /^OPEN (\S+)$/m.exec(output);
    if (match?.[1]) onOpen(match[1]);
  });
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { opened, exited, output: () => output };
}

test("the desktop app signs in through the site, then the site signs out the device", async ({
  page,
  browser,
}) => {
  const stateFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), "desktop-client-")),
    "state.json",
  );
  const email = uniqueEmail("desk");
  await signUpAndVerify(page, { name: "Desk Top", email, password: "desktop-handoff-77" });

  // Its own computer: one free trial per computer, and this run's trial is this test's.
  const login = desktopClient(
    ["login", "--device-name", "E2E MacBook", "--machine-id", `e2e-${randomUUID()}`],
    stateFile,
  );
  await page.goto(await login.opened);
  // /login-via says which app asks and waits for the click; then /login-success hands the token
  // to the app's loopback listener.
  await expect(page.getByText("E2E MacBook (Mac)", { exact: false })).toBeVisible();
  await expectNoAxeViolations(page);
  await page
    .getByRole("button", { name: `Connect the Pinout app on this computer to ${email}` })
    .click();
  await expect(page.getByRole("heading", { name: "You are signed in to the app." })).toBeVisible();
  expect(await login.exited).toBe(0);
  expect(login.output()).toContain('"plan": "free"');
  expect(login.output()).toMatch(/license: valid \(EdDSA\)/);

  const me = desktopClient(["me"], stateFile);
  expect(await me.exited).toBe(0);
  // The running app's check-in (issue 57): the entitlement now, and when to check in next.
  const heartbeat = desktopClient(["heartbeat"], stateFile);
  expect(await heartbeat.exited).toBe(0);
  expect(heartbeat.output()).toContain("checked in: plan free; next check-in in 6 h");
  // The free trial from the app; /me then says so.
  const trial = desktopClient(["trial"], stateFile);
  expect(await trial.exited).toBe(0);
  expect(trial.output()).toMatch(/trial started: \d+ days, until /);
  const onTrial = desktopClient(["me"], stateFile);
  expect(await onTrial.exited).toBe(0);
  expect(onTrial.output()).toMatch(/trial: \d+ days left/);

  // The reverse: the app opens the site signed in, in a browser with no session, once the visitor
  // confirms (opening the link alone signs nobody in).
  const fresh = await browser.newContext({
    userAgent:
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
  });
  const other = await fresh.newPage();
  const openAccount = desktopClient(["open-account"], stateFile);
  await other.goto(await openAccount.opened);
  await expect(other.getByRole("heading", { name: `Continue as ${email}?` })).toBeVisible();
  expect(await fresh.cookies()).not.toContainEqual(
    expect.objectContaining({ name: expect.stringContaining("session_token") }),
  );
  await other.getByRole("button", { name: `Continue as ${email}` }).click();
  await expect(other).toHaveURL(/\/account$/);
  await expect(other.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await fresh.close();

  await page.goto("/account/security");
  await waitForHydration(page);
  await expect(page.getByText("E2E MacBook")).toBeVisible();
  await page.getByRole("button", { name: "Sign out E2E MacBook" }).click();
  await expect(page.getByText("The device was signed out.")).toBeVisible();
  const after = desktopClient(["me"], stateFile);
  expect(await after.exited).toBe(1);
  expect(after.output()).toContain("me: 401");
});

test("opening a handoff link sends nothing to the loopback port until the person presses Connect", async ({
  page,
}) => {
  const email = uniqueEmail("loop");
  await signUpAndVerify(page, { name: "Loop Back", email, password: "desktop-handoff-78" });

  // Whatever listens on the port the link names (the real app, or anything else on the machine).
  const received: string[] = [];
  const listener = http.createServer((req, res) => {
    received.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>app</title>");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const port = (listener.address() as AddressInfo).port;
  try {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const query = new URLSearchParams({
      client: "desktop",
      redirect_uri: `http://127.0.0.1:${port}/cb`,
      state: "state-loopback-1",
      code_challenge: challenge,
      code_challenge_method: "S256",
      device_name: "<b>Asha's</b> laptop",
      platform: "windows",
    });
    await page.goto(`/login-via?${query}`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Connect the Pinout app?" })).toBeVisible();
    // The device name is text, never markup.
    await expect(page.getByText("<b>Asha's</b> laptop (Windows)", { exact: false })).toBeVisible();
    // A script that handed the token over by itself would have done it by now: the page is
    // hydrated, every request it made has ended (the listener answers at once), and the tasks
    // it had queued have run.
    await page.waitForLoadState("networkidle");
    await pageTasksRun(page);
    expect(received).toEqual([]);
    expect(page.url()).toContain("/login-via?");

    await page
      .getByRole("button", { name: `Connect the Pinout app on this computer to ${email}` })
      .click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const callback = new URL(received[0]!, `http://127.0.0.1:${port}`);
    expect(callback.pathname).toBe("/cb");
    expect(callback.searchParams.get("state")).toBe("state-loopback-1");
    const token = callback.searchParams.get("token") ?? "";
    // The app completes the handoff with its verifier.
    const exchanged = await page.request.post("/api/desktop/token", {
      data: {
        token,
        code_verifier: verifier,
        device_name: "Asha's laptop",
        platform: "windows",
        app_version: "2.1.0",
      },
    });
    expect(exchanged.status()).toBe(200);
    expect(((await exchanged.json()) as { user: { email: string } }).user.email).toBe(email);
  } finally {
    await new Promise((resolve) => listener.close(resolve));
  }
});

test.describe("a bad handoff request", () => {
  test.use({ allowConsoleErrors: /status of 400/ });
  test("shows a clear error page for a redirect_uri that is not loopback or the app's scheme", async ({
    page,
  }) => {
    const response = await page.goto(
      "/login-via?client=desktop&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=state-1234567&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256",
    );
    expect(response?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "Bad Request" })).toBeVisible();
    // Words for a person; the validator's reason goes to the log (issue 34).
    await expect(
      page.getByText(/This sign-in link from the app is incomplete or damaged/),
    ).toBeVisible();
    await expect(page.getByText(/redirect_uri must be/)).toHaveCount(0);
  });
});

test("a purchase link from the app leads through checkout, back to the app, and its check-in reports Pro", async ({
  page,
}) => {
  const stateFile = path.join(
    fs.mkdtempSync(path.join(os.tmpdir(), "desktop-client-")),
    "state.json",
  );
  const email = uniqueEmail("inapp");
  await signUpAndVerify(page, { name: "Asha Rao", email, password: "desktop-purchase-79" });
  const login = desktopClient(
    ["login", "--device-name", "Bench PC", "--machine-id", `e2e-${randomUUID()}`],
    stateFile,
  );
  await page.goto(await login.opened);
  await page
    .getByRole("button", { name: `Connect the Pinout app on this computer to ${email}` })
    .click();
  expect(await login.exited).toBe(0);

  // The app asks for a link for Pro monthly and opens it; it waits for the change meanwhile.
  const buy = desktopClient(["buy", "--plan", "pro-monthly", "--timeout", "120"], stateFile);
  await page.goto(await buy.opened);
  await page.getByRole("button", { name: `Continue as ${email}` }).click();
  await expect(page).toHaveURL(/\/checkout\?plan=pro-monthly$/);
  await expect(page.getByRole("heading", { name: "Subscribe to Pro (monthly)" })).toBeVisible();
  await waitForHydration(page);
  // The buyer's name is there already; the address is theirs to give.
  await expect(page.getByLabel("Name or company name")).toHaveValue("Asha Rao");
  await page.getByLabel("Address", { exact: true }).fill("12 MG Road");
  await page.getByLabel("City").fill("Bengaluru");
  await page.getByLabel("PIN code").fill("560001");
  await page.getByLabel("State or union territory").selectOption({ label: "Karnataka" });
  await page.getByRole("button", { name: /Continue to payment/ }).click();
  const modal = page.getByRole("dialog");
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Success" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });
  await expectNoAxeViolations(page);

  // Back to the app: the link goes to the app's loopback listener, which says so.
  await page.getByRole("link", { name: "Return to the Pinout app" }).click();
  await expect(page.getByRole("heading", { name: "Done: back in the app." })).toBeVisible();
  expect(await buy.exited).toBe(0);
  expect(buy.output()).toContain("entitlement changed: plan pro-monthly, renews");
  expect(buy.output()).toMatch(/browser returned: done=purchase&subscription=sub_/);

  // The app's next check-in reports Pro.
  const heartbeat = desktopClient(["heartbeat"], stateFile);
  expect(await heartbeat.exited).toBe(0);
  expect(heartbeat.output()).toContain("checked in: plan pro-monthly");
});
