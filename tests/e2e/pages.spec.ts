import { createHash, randomBytes } from "node:crypto";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { BrowserContext, ConsoleMessage, Page } from "@playwright/test";
import { matchPath } from "react-router";
import routes from "../../app/routes";
import { SANDBOX_AUTH } from "../support/billing";
import { linkFromMail } from "../support/mail";
import { E2E_DATA_DIR, E2E_LAYOUT_ADMIN_EMAIL } from "./env";
import { axeViolations, expect, signUpAndVerify, test, waitForHydration } from "./fixtures";
import { signInDesktopApp } from "./desktop-me";

/**
 * The one pass over every page of the site (issue 55: the reflow and accessibility passes, which
 * loaded the same pages each on their own, made one). Each page is loaded once and seen at 320 px
 * (WCAG's reflow width), 390 px (a phone), 768 px (a tablet) and 1280 px (a desktop), signed out,
 * signed in and as an admin, with the long values people really have: a 60-character email
 * address, a company name and an address that fill their fields, an invoice number of the 16
 * characters the series allows. At every width no page is wider than the screen (issue 21,
 * point 5); axe checks every page at 320 px, the signed-out pages at 1280 px too, and the home
 * page's open menu at 390 px (`axeAt` below says where).
 *
 * The pages come from app/routes.ts: every route with a component (a `.tsx` module) is visited,
 * so a new page is measured without touching this file. A page whose path has a parameter needs
 * a real value: public ones are taken from the sitemap, the others from `concreteUrls` below; a
 * page with neither fails the test rather than going unmeasured.
 */
const WIDTHS = [320, 390, 768, 1280] as const;
type Width = (typeof WIDTHS)[number];
const HEIGHT = 800;

type Area = "public" | "auth" | "admin";

interface PageRoute {
  pattern: string;
  area: Area;
}

/** Every page route of app/routes.ts with the guard it sits under. */
function pageRoutes(
  entries: readonly RouteConfigEntry[],
  parent = "",
  area: Area = "public",
): PageRoute[] {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    // The account area's guard admits whom `auth` admits (it reads more with the session).
    const guard = /^routes\/guards\/(auth|account|admin)\.tsx$/.exec(entry.file)?.[1];
    const own: Area = guard === "admin" ? "admin" : guard ? "auth" : area;
    // Resource routes (.ts) answer files, feeds and JSON; only components render a page.
    const isPage =
      (entry.path !== undefined || entry.index === true) && entry.file.endsWith(".tsx");
    return [
      ...(isPage ? [{ pattern: path || "/", area: own }] : []),
      ...pageRoutes(entry.children ?? [], path, own),
    ];
  });
}

const PAGES = pageRoutes(routes);

/** What the variants of pages need to know: who the long customer is, what exists. */
interface Known {
  email: string;
  /** `/checkout/complete?subscription=…` of the customer's purchase. */
  checkoutComplete?: string;
  /** A release's id, for /admin/releases/:id. */
  releaseId?: string;
  /** A fresh app → web link of the customer's desktop app (its token lives two minutes). */
  openFromApp?: () => Promise<string>;
  /** The number of the customer's support ticket (long subject, their invoice and device). */
  ticketNumber?: number;
  /** The customer's account id, for /admin/customers/:id. */
  customerId?: string;
  /** A dispute of the customer's payment, for /admin/disputes/:id. */
  disputeId?: string;
  /** The customer's team (long name and billing details), for /account/team/:id. */
  teamPath?: string;
  /** An invitation the customer sent to another long address, for /team-invite/:id. */
  invitePath?: string;
}

/** A URL, or one made at the moment of the visit (it holds a short-lived token). */
type Visit = string | { name: string; url: () => Promise<string> };

const LONG_DEVICE_NAME = "Venkatanarasimharajuvaripeta Engineering Workstation";

/** 43 characters of base64url: what a PKCE S256 challenge looks like. */
function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * The URLs of a page beyond its bare path: other views of one module, and values for the
 * parameters of private pages (public ones come from the sitemap).
 */
function concreteUrls(pattern: string, known: Known): Visit[] | undefined {
  switch (pattern) {
    case "/auth":
      return ["/auth", "/auth?view=signup", "/auth?view=forgot", "/auth?view=reset&token=expired"];
    case "/search":
      return ["/search", "/search?q=uart"];
    case "/*":
      return ["/no-such-page-for-the-overflow-test"];
    case "/login-success":
      // A live token sends the browser on to the app's loopback listener: only the page that stays.
      return ["/login-success?token=expired-token-for-the-overflow-test"];
    case "/login-via": {
      const toApp = `/login-via?${new URLSearchParams({
        client: "desktop",
        redirect_uri: "http://127.0.0.1:53682/callback",
        state: "state-overflow-1",
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        device_name: LONG_DEVICE_NAME,
        platform: "windows",
      })}`;
      const { openFromApp } = known;
      return openFromApp ? [toApp, { name: "/login-via?token=…", url: openFromApp }] : [toApp];
    }
    case "/checkout":
      return ["/checkout?plan=pro-monthly", "/checkout?plan=pro-yearly"];
    case "/checkout/complete":
      return known.checkoutComplete ? [known.checkoutComplete] : undefined;
    case "/admin-fix-subscription":
      return [
        "/admin-fix-subscription",
        `/admin-fix-subscription?${new URLSearchParams({ email: known.email })}`,
      ];
    case "/admin/customers/:id":
      return known.customerId ? [`/admin/customers/${known.customerId}`] : undefined;
    case "/admin/disputes/:id":
      return known.disputeId ? [`/admin/disputes/${known.disputeId}`] : undefined;
    case "/admin/users":
      return ["/admin/users", `/admin/users?${new URLSearchParams({ q: known.email })}`];
    case "/admin/releases/:id":
      return known.releaseId ? [`/admin/releases/${known.releaseId}`] : undefined;
    case "/account/support/:number":
      return known.ticketNumber ? [`/account/support/${known.ticketNumber}`] : undefined;
    case "/admin/support/:number":
      return known.ticketNumber ? [`/admin/support/${known.ticketNumber}`] : undefined;
    case "/account/team/:id":
      return known.teamPath ? [known.teamPath] : undefined;
    case "/admin/teams/:id":
      return known.teamPath ? [`/admin/teams/${known.teamPath.split("/").at(-1)}`] : undefined;
    // Buying seats: the largest order (200 yearly seats, above UPI AutoPay's limit) too.
    case "/account/team/:id/seats":
      return known.teamPath
        ? [`${known.teamPath}/seats`, `${known.teamPath}/seats?seats=200&cycle=yearly`]
        : undefined;
    // The cancellation step of the team's seats (a team without seats is sent to its page).
    case "/account/team/:id/cancel":
      return known.teamPath ? [`${known.teamPath}/cancel`] : undefined;
    // Opened by the customer, not the invitee: the page names both long addresses.
    case "/team-invite/:id":
      return known.invitePath ? [known.invitePath] : undefined;
    // A billing mail's signed link (issue 59): one that is not a link shows its refusal page.
    case "/manage/:token":
      return ["/manage/not-a-real-billing-link-for-the-overflow-test"];
    // A referral link redirects to pricing (a code that is nobody's: without a cookie).
    case "/r/:code":
      return ["/r/ZZZZZZZZ"];
    default:
      return undefined;
  }
}

/** The public pages the sitemap lists, by path. */
async function sitemapPaths(page: Page): Promise<string[]> {
  const response = await page.request.get("/sitemap.xml");
  expect(response.status()).toBe(200);
  const xml = await response.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
}

/** Every URL to measure for an area; throws for a page it has no value for. */
function urlsFor(area: Area, known: Known, sitemap: readonly string[]): Visit[] {
  return PAGES.filter((route) => route.area === area).flatMap((route) => {
    const visits = concreteUrls(route.pattern, known);
    if (visits) return visits;
    if (!route.pattern.includes(":")) return [route.pattern];
    const listed = sitemap.filter((path) => matchPath(route.pattern, path));
    if (listed.length > 0) return listed;
    throw new Error(
      `${route.pattern} (${route.area}) has a parameter and no real value: list one in concreteUrls`,
    );
  });
}

/**
 * Invoice numbers as the longest series `site.invoicing.prefix` allows: the demo prefix is two
 * letters (15 characters); a three-letter one makes them 16. The page is already hydrated, so the
 * text can change without React noticing.
 */
async function widenInvoiceNumbers(page: Page): Promise<number> {
  return page.evaluate(() => {
    const number = /\b([A-Z]{1,2})\/((?:CN\/)?\d{2}-\d{2}\/\d{4,6})\b/g;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let widened = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      const wider = text.replace(number, (_, prefix: string, rest: string) => {
        widened += 1;
        return `${prefix.padEnd(3, "X")}/${rest}`;
      });
      if (wider !== text) node.textContent = wider;
    }
    return widened;
  });
}

/** Null when the page fits its viewport; else how wide it is and what makes it so. */
async function overflowOf(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= window.innerWidth) return null;
    // Text can stick out of a box that fits, so boxes' edges do not tell: the culprit is the
    // innermost element without which the page fits.
    let culprit: Element = document.body;
    for (;;) {
      const next = [...culprit.children].find((child) => {
        if (!(child instanceof HTMLElement || child instanceof SVGElement)) return false;
        const display = child.style.display;
        child.style.display = "none";
        const fits = root.scrollWidth <= window.innerWidth;
        child.style.display = display;
        return fits;
      });
      if (!next) break;
      culprit = next;
    }
    const text = (culprit.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60);
    return `${root.scrollWidth}px wide in ${window.innerWidth}px; <${culprit.tagName.toLowerCase()} class="${culprit.getAttribute("class") ?? ""}"> ${text}`;
  });
}

/** Two animation frames after a resize: resize observers have run and the layout is current. */
function settleLayout(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
      ),
  );
}

/** Where axe checks a page: at which widths, by the URL's name. */
type AxeAt = (name: string, width: Width) => boolean;

/** The width at which the home page's menu is opened and checked: a phone's. */
const MENU_WIDTH: Width = 390;

/**
 * Visits each URL once and returns what is wrong at each width: a page wider than the viewport,
 * axe violations where `axeAt` asks for them, and an error status in the console that is not the
 * page's own (the 404 page's 404 is expected; a missing image on any page is not).
 */
async function measure(
  page: Page,
  who: string,
  visits: readonly Visit[],
  axeAt: AxeAt,
  /** Whether the mobile menu of this URL is opened, at `MENU_WIDTH`, and checked open. */
  withMenu: (name: string) => boolean = () => false,
): Promise<{ problems: string[]; withInvoiceNumbers: string[] }> {
  const problems: string[] = [];
  const withInvoiceNumbers = new Set<string>();
  // The tests allow the console's status errors (ALLOWED_CONSOLE_ERRORS) for the few pages that
  // answer one; here each is held to the page it belongs to.
  const statuses: number[] = [];
  const onConsole = (message: ConsoleMessage) => {
    const status = /the server responded with a status of (\d+)/.exec(message.text())?.[1];
    if (message.type() === "error" && status) statuses.push(Number(status));
  };
  page.on("console", onConsole);
  for (const visit of visits) {
    const name = typeof visit === "string" ? visit : visit.name;
    const at = (width: Width) => `${who} ${name} at ${width}px`;
    statuses.length = 0;
    // Loaded once at the narrowest width, then widened: the layout follows the viewport (CSS and
    // the size observers of charts), so a reload per width would measure the same page again.
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    const response = await page.goto(typeof visit === "string" ? visit : await visit.url());
    // Hydrated, and whatever the page loads after (the section menu scrolls its current entry
    // into view in an effect) is done.
    await page.waitForLoadState("networkidle");
    if ((await widenInvoiceNumbers(page)) > 0) withInvoiceNumbers.add(name);
    for (const width of WIDTHS) {
      if (width !== WIDTHS[0]) {
        await page.setViewportSize({ width, height: HEIGHT });
        await settleLayout(page);
      }
      const overflow = await overflowOf(page);
      if (overflow) problems.push(`${at(width)}: ${overflow}`);
      if (axeAt(name, width)) {
        // What scripts add to the page (the navbar's session state) is there before axe looks.
        if (width === 1280) await waitForHydration(page);
        for (const violation of await axeViolations(page))
          problems.push(`${at(width)}, axe: ${violation}`);
      }
      if (width === MENU_WIDTH && withMenu(name)) {
        await waitForHydration(page);
        await page.getByRole("button", { name: "Open menu" }).click();
        const close = page.getByRole("button", { name: "Close menu" });
        await expect(close).toBeVisible();
        const open = `${at(width)} with the menu open`;
        const overflowOpen = await overflowOf(page);
        if (overflowOpen) problems.push(`${open}: ${overflowOpen}`);
        for (const violation of await axeViolations(page))
          problems.push(`${open}, axe: ${violation}`);
        // Closed again: the wider layouts are measured as the page first shows them.
        await close.click();
        await expect(page.getByRole("button", { name: "Open menu" })).toBeVisible();
      }
    }
    for (const status of statuses)
      if (status !== response?.status())
        problems.push(`${who} ${name}: a ${status} in the console of a ${response?.status()} page`);
  }
  page.off("console", onConsole);
  return { problems, withInvoiceNumbers: [...withInvoiceNumbers] };
}

/** An address of exactly 60 characters, unique per run, as a long real one looks. */
function longEmail(): string {
  const domain = "@venkateswara-embedded.in";
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const local = `venkata.rajuvaripeta.${unique}`.padEnd(60 - domain.length, "n");
  const email = `${local}${domain}`;
  expect(email).toHaveLength(60);
  return email;
}

/**
 * The customer's team, with the longest company details the form takes, and an invitation to
 * another 60-character address: the team page lists it, and its link is measured as the customer
 * sees it (someone else's invitation, naming both addresses).
 */
async function longTeam(page: Page): Promise<{ teamPath: string; invitePath: string }> {
  await page.goto("/account/team");
  await page
    .getByLabel("Name or company name")
    .fill("Sri Venkateswara Embedded Systems and Electronic Instrumentation Private Limited");
  await page
    .getByLabel("Address", { exact: true })
    .fill("Unit-No.B-1204/Tower-C,Prestige-Shantiniketan, Whitefield Main Road, Hoodi Village");
  await page.getByLabel("City").fill("Thiruvananthapuram");
  await page.getByLabel("PIN code").fill("396210");
  await page
    .getByLabel("State or union territory")
    .selectOption({ label: "Dadra and Nagar Haveli and Daman and Diu" });
  await page.getByRole("button", { name: "Create the team" }).click();
  await expect(page).toHaveURL(/\/account\/team\/[^/?]+/);
  const teamPath = new URL(page.url()).pathname;
  const invitee = longEmail();
  await page.getByLabel("Their work email").fill(invitee);
  await page.getByRole("button", { name: "Send the invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${invitee}.`)).toBeVisible();
  const link = await linkFromMail(E2E_DATA_DIR, invitee, "/team-invite/");
  return { teamPath, invitePath: new URL(link).pathname };
}

/**
 * Signs up a customer with a 60-character address and buys Pro through the sandbox checkout
 * with billing details that fill their fields, at the narrowest width (the payment dialog is
 * measured too), and signs the desktop app in on a computer with a long name. Returns the page,
 * signed in, and what the variants need.
 */
async function longCustomer(
  page: Page,
): Promise<
  Required<
    Pick<
      Known,
      "email" | "checkoutComplete" | "openFromApp" | "ticketNumber" | "teamPath" | "invitePath"
    >
  >
> {
  const email = longEmail();
  await signUpAndVerify(page, {
    name: "Venkatanarasimha Rajuvaripeta Subrahmanya",
    email,
    password: "overflow-password-1",
  });
  await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
  await page.goto("/checkout?plan=pro-monthly");
  await page.waitForLoadState("networkidle");
  await page
    .getByLabel("Name or company name")
    .fill("Sri Venkateswara Embedded Systems and Electronic Instrumentation Private Limited");
  await page
    .getByLabel("Address", { exact: true })
    .fill("Unit-No.B-1204/Tower-C,Prestige-Shantiniketan, Whitefield Main Road, Hoodi Village");
  await page
    .getByLabel("Address line 2 (optional)")
    .fill("Opposite International Technology Park Bangalore, Krishnarajapuram Hobli");
  await page.getByLabel("City").fill("Thiruvananthapuram");
  await page.getByLabel("PIN code").fill("396210");
  await page
    .getByLabel("State or union territory")
    .selectOption({ label: "Dadra and Nagar Haveli and Daman and Diu" });
  await page.getByRole("button", { name: /Continue to payment/ }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  expect(await overflowOf(page), `/checkout with the payment dialog at ${WIDTHS[0]}px`).toBeNull();
  await dialog.getByRole("button", { name: "Success" }).click();
  await expect(page.getByRole("heading", { name: "Welcome to Pro" })).toBeVisible({
    timeout: 20_000,
  });
  const complete = new URL(page.url());
  // The invoice is issued by a job after the payment's webhook: wait until it is listed.
  await expect
    .poll(
      async () => {
        await page.goto("/invoices");
        return page.getByRole("link", { name: /^Download .* as PDF$/ }).count();
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  const accessToken = await signInDesktopApp(page, {
    name: LONG_DEVICE_NAME,
    platform: "windows",
  });
  const ticketNumber = await openLongTicket(page);
  const { teamPath, invitePath } = await longTeam(page);
  return {
    email,
    ticketNumber,
    teamPath,
    invitePath,
    checkoutComplete: complete.pathname + complete.search,
    openFromApp: async () => {
      const response = await page.request.post("/api/desktop/web-session-token", {
        headers: { authorization: `Bearer ${accessToken}` },
      });
      expect(response.status()).toBe(200);
      const { token } = (await response.json()) as { token: string };
      return `/login-via?${new URLSearchParams({ token, next: "/account" })}`;
    },
  };
}

/**
 * A support ticket through the form at the narrowest width, with a subject that fills its field,
 * a message with a long unbroken URL, the customer's invoice and device; returns its number.
 */
async function openLongTicket(page: Page): Promise<number> {
  await page.goto("/account/support");
  await page.getByLabel("What is it about?").selectOption("billing");
  await page
    .getByLabel("Subject")
    .fill("GSTIN missing on the invoice for Sri Venkateswara Embedded Systems Private Limited");
  await page
    .getByLabel("Message")
    .fill(
      "The invoice lacks our GSTIN; the portal shows it here: https://services.gst.gov.in/services/searchtp?gstin=29AAPCP1234F1ZC&returnUrl=%2Fservices%2Fsearchtpbypan",
    );
  await page.getByLabel("Invoice (optional)").selectOption({ index: 1 });
  await page.getByLabel("Device (optional)").selectOption({ index: 1 });
  await page.getByRole("button", { name: "Send request" }).click();
  await page.waitForURL(/\/account\/support\/\d+\?opened=1$/);
  return Number(/\/account\/support\/(\d+)/.exec(page.url())?.[1]);
}

/**
 * The 404 page, the error probe's 500 page and a signed-in customer's 403 under /admin are among
 * the pages measured: their statuses show in the console (`measure` holds each to its own page).
 */
const ALLOWED_CONSOLE_ERRORS = /the server responded with a status of (403|404|500)/;

/** The passes over many pages are cut in this many parts. */
const PARTS = 3;

/** Every `PARTS`th visit, starting at `part`: parts of about the same length and mix. */
function partOf(visits: readonly Visit[], part: number): Visit[] {
  return visits.filter((_, index) => index % PARTS === part);
}

test.describe("every page fits the screen and passes axe", () => {
  test.use({ allowConsoleErrors: ALLOWED_CONSOLE_ERRORS });

  test("every page of app/routes.ts has a URL to measure", () => {
    const areas = new Set(PAGES.map((route) => route.area));
    expect([...areas].sort()).toEqual(["admin", "auth", "public"]);
    // Each private page resolves to at least one URL once the long customer exists.
    const known: Known = {
      email: "a@example.com",
      checkoutComplete: "/checkout/complete?subscription=sub_x",
      releaseId: "r",
      ticketNumber: 1001,
      customerId: "u",
      disputeId: "disp_x",
      teamPath: "/account/team/t",
      invitePath: "/team-invite/i",
    };
    for (const area of ["auth", "admin"] as const)
      expect(urlsFor(area, known, []).length).toBeGreaterThan(0);
  });

  // Each part is a test of its own, so a slow machine slows a part down instead of failing the
  // whole pass, and the two browser workers share the parts.
  for (let part = 0; part < PARTS; part++)
    test(`signed out (part ${part + 1} of ${PARTS})`, async ({ page }) => {
      test.setTimeout(180_000);
      const visits = urlsFor("public", { email: "" }, await sitemapPaths(page));
      expect(visits).toContain("/pricing");
      const { problems } = await measure(
        page,
        "signed out:",
        partOf(visits, part),
        // 320 px for reflow's sake; 1280 px for the desktop's navbar and layout, which a phone's
        // width hides (the navbar's search field, for one). The home page's menu is checked open.
        (_, width) => width === 320 || width === 1280,
        (name) => name === "/",
      );
      expect(problems).toEqual([]);
    });

  test.describe("a customer with a 60-character email, long billing details and an invoice", () => {
    // One customer (signing up and paying takes a while) for the parts below, one after another
    // in one browser context; each part has its own time limit.
    test.describe.configure({ mode: "serial" });
    let context: BrowserContext;
    let page: Page;
    let known: Awaited<ReturnType<typeof longCustomer>>;
    const errors: string[] = [];

    test.beforeAll(async ({ browser }) => {
      test.setTimeout(240_000);
      context = await browser.newContext();
      page = await context.newPage();
      // What the `consoleErrors` fixture checks on its own page, on this shared one.
      page.on("console", (message) => {
        if (message.type() === "error" && !ALLOWED_CONSOLE_ERRORS.test(message.text()))
          errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
      known = await longCustomer(page);
    });
    test.afterEach(() => {
      expect(errors, "console errors in the page").toEqual([]);
    });
    test.afterAll(async () => {
      await context?.close();
    });

    test("the account area", async () => {
      test.setTimeout(180_000);
      const visits = [
        ...urlsFor("auth", known, await sitemapPaths(page)),
        // A customer who opens the admin area gets the 403 page.
        "/admin",
      ];
      expect(visits).toContain("/account/profile");
      const { problems, withInvoiceNumbers } = await measure(
        page,
        "customer:",
        visits,
        (_, width) => width === 320,
      );
      expect(problems).toEqual([]);
      expect(withInvoiceNumbers).toContain("/invoices");
    });

    for (let part = 0; part < PARTS; part++)
      test(`the public pages signed in (part ${part + 1} of ${PARTS})`, async () => {
        test.setTimeout(180_000);
        const visits = urlsFor("public", known, await sitemapPaths(page));
        expect(visits).toContainEqual(expect.objectContaining({ name: "/login-via?token=…" }));
        // A blog post or legal page differs from its signed-out self only in the navbar, which
        // axe checks signed in on every page of the account area: axe skips them here (each
        // costs seconds), and checks the pages whose content changes for a customer.
        const contentPage = (name: string) => /^\/(blog|legal)\/./.test(name);
        const { problems } = await measure(
          page,
          "customer:",
          partOf(visits, part),
          (name, width) => width === 320 && !contentPage(name),
        );
        expect(problems).toEqual([]);
      });
  });

  test("admin pages, with that customer among the users, subscriptions and invoices", async ({
    browser,
    page,
  }) => {
    test.setTimeout(240_000);
    const customer = await browser.newContext();
    const customerTab = await customer.newPage();
    const known = await longCustomer(customerTab);
    // The customer's team, for the operator's /admin/teams/:id.
    const { teamPath } = await longTeam(customerTab);
    const { email } = known;
    await signUpAndVerify(page, {
      name: "Layout Admin",
      email: E2E_LAYOUT_ADMIN_EMAIL,
      password: "overflow-password-1",
    });
    // The feedback inbox on /admin shows the sender's address.
    const sent = await page.request.post("/feedback", {
      form: {
        email,
        category: "bug",
        message:
          "The pin map of the ESP32-S3-DevKitC-1-N32R8V shows GPIO47 twice: https://docs.espressif.com/projects/esp-idf/en/latest/esp32s3/hw-reference/esp32s3/user-guide-devkitc-1.html",
      },
      headers: { origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(302);
    // The publishing tokens list their names and their makers' addresses.
    await page.goto("/admin/releases");
    await page.waitForLoadState("networkidle");
    const tokenName = "GitHub-Actions-release-workflow-for-pinout-desktop-electron";
    await page.getByLabel("Token name").fill(tokenName);
    await page.getByRole("button", { name: "Create token" }).click();
    await expect(page.getByRole("button", { name: `Revoke ${tokenName}` })).toBeVisible();
    const release = await page.locator('a[href^="/admin/releases/"]').first().getAttribute("href");
    const releaseId = release?.split("/").at(-1);
    expect(releaseId).toBeTruthy();
    // The customer's own page, as the users search links to it.
    await page.goto(`/admin/users?${new URLSearchParams({ q: email })}`);
    const customerPage = await page
      .locator('a[href^="/admin/customers/"]')
      .first()
      .getAttribute("href");
    const customerId = customerPage?.split("/").at(-1);
    expect(customerId).toBeTruthy();
    // The customer's bank disputes their payment (the sandbox's control route, as a bank would):
    // its page names their address and the evidence.
    await page.goto(customerPage ?? "/admin");
    const paymentId = await page.locator('input[name="paymentId"]').first().inputValue();
    const raised = await page.request.post(
      `/_sandbox/razorpay/control/payments/${paymentId}/dispute`,
      {
        headers: { authorization: SANDBOX_AUTH },
        data: {},
      },
    );
    expect(raised.status()).toBe(200);
    const disputeId = ((await raised.json()) as { id: string }).id;
    await expect
      .poll(async () => (await page.request.get(`/admin/disputes/${disputeId}`)).status(), {
        timeout: 20_000,
      })
      .toBe(200);
    const visits: Visit[] = [
      ...urlsFor(
        "admin",
        { email, releaseId, customerId, disputeId, ticketNumber: known.ticketNumber, teamPath },
        await sitemapPaths(page),
      ),
      // The customer's app opens the site in the admin's browser: both addresses on one page.
      { name: "/login-via?token=… in another account's browser", url: known.openFromApp },
    ];
    expect(visits).toContain(`/admin-fix-subscription?${new URLSearchParams({ email })}`);
    const { problems, withInvoiceNumbers } = await measure(
      page,
      "admin:",
      visits,
      (_, width) => width === 320,
    );
    expect(problems).toEqual([]);
    expect(withInvoiceNumbers).toContain("/admin/invoices");
    await customer.close();
  });
});

test("the axe check itself reports a violation, on a page that already ran axe too", async ({
  page,
}) => {
  // Without this, a check that silently ran no rules would pass every page above.
  await page.setContent(
    `<!doctype html><html lang="en"><head><title>probe</title></head><body><main><h1>Probe</h1>
      <p style="color:#777;background:#888">Low contrast</p></main></body></html>`,
  );
  expect(await axeViolations(page)).toEqual([expect.stringMatching(/^color-contrast: .*\(p\)$/)]);
  // axe is injected once per document: a second check on it runs again and sees the change.
  await page.evaluate(() => document.querySelector("main")!.append(document.createElement("img")));
  expect(await axeViolations(page)).toEqual([
    expect.stringMatching(/^color-contrast: /),
    expect.stringMatching(/^image-alt: .*\(img\)$/),
  ]);
});
