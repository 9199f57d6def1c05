/**
 * Issue 20, point 1: every date a person sees on a billing surface is an India date. The server's
 * clock is set (libfaketime) to 20:00 UTC on 23 Nov 2026, which is 01:30 on 24 Nov in India: the
 * UTC day is still the 23rd, so any surface that shows a UTC day shows "23 Nov" and fails here.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_EMAIL,
  getWithCookies,
  postForm,
  signUpAdmin,
  signUpVerified,
} from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText, textOf } from "../support/pages";
import { cancelThroughFlow, sandboxCharge, sandboxPay, startCheckout } from "../support/billing";
import { readOutbox } from "../support/mail";
import { type RunningTestServer, startServerProcess } from "../support/server";

const FAKETIME_LIB = [
  "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
  "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
].find((file) => fs.existsSync(file));
const PASSWORD = "india-dates-password-1";

function pdfText(bytes: Buffer): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "invoice-")), "invoice.pdf");
  fs.writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

describe("billing dates at 01:30 in India (20:00 UTC the day before)", () => {
  let server: RunningTestServer;

  beforeAll(async () => {
    if (!FAKETIME_LIB)
      throw new Error(
        "libfaketime is needed (Debian: apt-get install faketime; .ci/run installs it)",
      );
    // A process of its own: libfaketime sets the clock of a whole process.
    server = await startServerProcess({
      env: {
        LD_PRELOAD: FAKETIME_LIB,
        // From this moment, then running at the normal pace.
        FAKETIME: "@2026-11-23 20:00:00",
        TZ: "UTC",
        ADMIN_EMAILS: ADMIN_EMAIL,
        AUTH_RATE_LIMIT: "100",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows the same India dates on the invoice, account, billing, fix pages, mail and CSV", async () => {
    const boss = await signUpAdmin(server, PASSWORD);
    const cookie = await signUpVerified(server, {
      name: "Night Owl",
      email: "owl@example.com",
      password: PASSWORD,
    });
    const started = await startCheckout(server, cookie, "pro-monthly");
    const paid = await sandboxPay(server, started.subscriptionId ?? "", "success");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...paid.body });
    const page = (path: string, who = cookie) => pageText(server, path, who);
    const invoicesHtml = await eventually(
      async () => {
        const html = await (await getWithCookies(server, "/invoices", cookie)).text();
        return /href="\/invoices\/[^"]+\.pdf"/.test(html) ? html : undefined;
      },
      20_000,
      "the invoice",
    );

    // The invoice PDF: its date and its service period, in India days.
    const href = /href="(\/invoices\/[^"]+\.pdf)"/.exec(invoicesHtml)![1]!;
    const pdf = pdfText(
      Buffer.from(await (await getWithCookies(server, href, cookie)).arrayBuffer()),
    );
    expect(pdf).toMatch(/24 Nov 2026/);
    expect(pdf).toMatch(/Period: 24 Nov 2026 – 23 Dec 2026/);

    const surfaces = {
      invoices: textOf(invoicesHtml),
      subscription: await page("/account/subscription"),
      billing: await page("/billing"),
      admin: await page("/admin-fix-subscription?email=owl%40example.com", boss),
      csv: await (
        await getWithCookies(server, "/admin/invoices/gstr1.csv?month=2026-11", boss)
      ).text(),
    };
    expect(surfaces.invoices).toContain("24 Nov 2026");
    expect(surfaces.subscription).toContain("24 Dec 2026");
    // The renewal centre's sentence and the account's summary name the same India day.
    expect(surfaces.subscription).toContain("Pro (monthly) renews on 24 Dec 2026 for ₹699.");
    expect(await page("/account")).toContain("Pro (monthly) renews on 24 Dec 2026 for ₹699.");
    expect(surfaces.admin).toContain("24 Dec 2026");
    // A consumer's invoice is summed in GSTR-1's b2cs section (no date column); it is in November's.
    expect(surfaces.csv).toMatch(/\r?\nb2cs,.*,699\.00,/);
    const receipt = await eventually(async () =>
      readOutbox(server.dataDir).find(
        (mail) =>
          mail.to.includes("owl@example.com") && mail.subject.startsWith("Payment received"),
      ),
    );
    // No UTC day anywhere: the 23rd of November (the UTC day) and 22/23 Dec as a period end.
    // The mail as the person reads it: its body (the Date header is for mail programs, which show
    // it in the reader's own time zone).
    const mailBody = receipt.text
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("\n\n");
    expect(mailBody).toContain("24 Dec 2026");
    for (const [name, text] of Object.entries({ ...surfaces, pdf, receipt: mailBody })) {
      expect(text, name).not.toMatch(/23 Nov 2026|2026-11-23|23-Nov-2026|22 Dec 2026|2026-12-23/);
    }

    // Renew: the next charge's invoice is for the next India month.
    const subscriptionId = started.subscriptionId ?? "";
    expect((await sandboxCharge(`${server.url}/_sandbox/razorpay`, subscriptionId)).status).toBe(
      200,
    );
    const renewalHref = await eventually(
      async () => {
        const hrefs = [
          ...(await (await getWithCookies(server, "/invoices", cookie)).text()).matchAll(
            /href="(\/invoices\/[^"]+\.pdf)"/g,
          ),
        ].map((match) => match[1]!);
        return hrefs.length >= 2 ? hrefs.find((one) => one !== href) : undefined;
      },
      20_000,
      "the renewal's invoice",
    );
    const renewal = pdfText(
      Buffer.from(await (await getWithCookies(server, renewalHref!, cookie)).arrayBuffer()),
    );
    expect(renewal).toMatch(/Period: 24 Dec 2026 – 23 Jan 2027/);

    // Switch to yearly: it starts when the paid period ends, on an India day.
    const next = await startCheckout(server, cookie, "pro-yearly", undefined, { switch: "1" });
    const authorised = await sandboxPay(server, next.subscriptionId ?? "", "success");
    await postForm(server, "/checkout.data", cookie, { intent: "verify", ...authorised.body });
    const switching = await eventually(async () => {
      const text = await page("/account/subscription");
      return /Switching to Pro \(yearly\)/.test(text) ? text : undefined;
    });
    expect(switching).toContain("Switching to Pro (yearly) on 24 Jan 2027");
    const scheduled = await eventually(async () =>
      readOutbox(server.dataDir).find(
        (mail) =>
          mail.to.includes("owl@example.com") && mail.subject.startsWith("Plan change scheduled"),
      ),
    );
    expect(scheduled.subject).toBe("Plan change scheduled: Pro (yearly) from 24 Jan 2027");

    // Cancel outright: Pro until the end of the paid period, said in the India day.
    await cancelThroughFlow(server, cookie);
    const cancelled = await eventually(async () =>
      readOutbox(server.dataDir).find(
        (mail) =>
          mail.to.includes("owl@example.com") && mail.subject.endsWith("subscription is cancelled"),
      ),
    );
    expect(cancelled.text).toContain("You keep Pro until 24 Jan 2027");
    for (const [name, text] of Object.entries({
      renewal,
      switching,
      scheduled: scheduled.text,
      cancelled: cancelled.text,
    })) {
      expect(text, name).not.toMatch(/23 Dec 2026|2026-12-23|22 Jan 2027|23 Jan 2027 –|2027-01-23/);
    }
  });
});
