/**
 * checkout.js against the running sandbox, in node:vm with a tiny fake DOM: the modal's
 * structure and names, Success/Failure, retry after a failure, Escape and ondismiss.
 */
import { createHmac } from "node:crypto";
import vm from "node:vm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHECKOUT_JS } from "./browser-assets";
import { FakeDocument, type FakeElement } from "../../tests/support/fake-dom";
import {
  KEY_ID,
  KEY_SECRET,
  planAndSubscription,
  startHarness,
  waitFor,
  type Harness,
} from "../../tests/support/sandbox";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

interface Checkout {
  open(): Checkout;
  close(): void;
  on(event: string, fn: (response: unknown) => void): Checkout;
}

function load(src: string) {
  const document = new FakeDocument({ src });
  const context = vm.createContext({ document, fetch, setTimeout, clearTimeout, Intl });
  context.window = context;
  vm.runInContext(CHECKOUT_JS, context);
  const Razorpay = context.Razorpay as new (options: Record<string, unknown>) => Checkout;
  return { document, Razorpay };
}

const byText = (text: string) => (e: FakeElement) =>
  e.children.length === 0 && e.textContent === text;
const button = (doc: FakeDocument, name: string) =>
  doc.find(
    (e) =>
      e.tagName === "BUTTON" && (e.textContent === name || e.getAttribute("aria-label") === name),
  );

describe("checkout.js", () => {
  it("loads its stylesheet from its own base URL", () => {
    const { document, Razorpay } = load(`${h.base}/checkout.js?v=2`);
    const link = document.head.children.find((e) => e.tagName === "LINK");
    expect(link?.href).toBe(`${h.base}/checkout.css`);
    expect(typeof Razorpay).toBe("function");
    expect(() => new Razorpay({})).toThrow(/key/);
  });

  it("shows an accessible modal and pays with Success after a Failure", async () => {
    const { subId } = await planAndSubscription(h);
    const { document, Razorpay } = load(`${h.base}/checkout.js`);
    const handler = vi.fn();
    const ondismiss = vi.fn();
    const failed = vi.fn();
    const checkout = new Razorpay({
      key: KEY_ID,
      subscription_id: subId,
      name: "Pinout Pro",
      description: "Monthly plan",
      prefill: { email: "a@example.com" },
      handler,
      modal: { ondismiss },
    });
    checkout.on("payment.failed", failed);
    checkout.open();

    const dialog = document.find((e) => e.getAttribute("role") === "dialog");
    expect(dialog?.getAttribute("aria-modal")).toBe("true");
    const heading = document.find((e) => e.id === dialog?.getAttribute("aria-labelledby"));
    expect(heading?.textContent).toBe("Pinout Pro");
    expect(dialog?.contains(document.activeElement)).toBe(true);
    expect(document.documentElement.classList.contains("rzp-sbx-open")).toBe(true);

    const success = await waitFor(() => button(document, "Success"));
    const failure = button(document, "Failure");
    expect(button(document, "Close checkout")).toBeDefined();
    expect(document.find(byText("Test mode"))).toBeDefined();
    expect(dialog?.textContent).toContain("₹699.00 per month");
    expect(document.find(byText("Test card 4718 6091 0820 4366"))).toBeDefined();

    const upiLabel = document.find(byText("UPI AutoPay"));
    const upiRadio = upiLabel?.parentNode?.children.find((e) => e.type === "radio");
    const cardRadio = document.find(byText("Card"))?.parentNode?.children[0];
    expect(cardRadio?.checked).toBe(true);
    const scan = "Scan with your UPI app and approve the AutoPay mandate there.";
    const qr = () =>
      document.find((e) => e.tagName === "IMG" && e.alt === "QR code of the UPI AutoPay mandate");
    // `find` skips what is hidden.
    expect(qr()).toBeUndefined();
    upiRadio?.click();
    // UPI Collect ended (NPCI, 28 Feb 2026): a QR code to scan, never a UPI ID to type.
    expect(qr()?.src).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(document.find(byText(scan))).toBeDefined();
    expect(document.find(byText("UPI ID"))).toBeUndefined();
    expect(document.find((e) => e.tagName === "INPUT" && e.type !== "radio")).toBeUndefined();
    expect(document.find(byText("Test card 4718 6091 0820 4366"))).toBeUndefined();

    failure?.click();
    expect(success.disabled).toBe(true);
    const alert = await waitFor(() =>
      document.find((e) => e.getAttribute("role") === "alert" && e.textContent !== ""),
    );
    expect(alert.textContent).toBe("Payment failed. Nothing was charged. Try again or close.");
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed.mock.calls[0]?.[0]).toMatchObject({ error: { reason: "payment_failed" } });
    expect(success.disabled).toBe(false);
    expect(dialog?.parentNode).not.toBeNull();

    success.click();
    await waitFor(() => handler.mock.calls.length > 0);
    const response = handler.mock.calls[0]?.[0] as Record<string, string>;
    const expected = createHmac("sha256", KEY_SECRET)
      .update(`${response.razorpay_payment_id}|${subId}`)
      .digest("hex");
    expect(response.razorpay_signature).toBe(expected);
    expect(document.find((e) => e.getAttribute("role") === "dialog")).toBeUndefined();
    expect(ondismiss).not.toHaveBeenCalled();
    const sub = await h.api("GET", `/v1/subscriptions/${subId}`);
    expect(sub.json).toMatchObject({ status: "active", payment_method: "upi" });
  });

  it("says an upfront amount is charged today, not that only the mandate is authorised (issue 54)", async () => {
    const { subId } = await planAndSubscription(h, {
      start_at: 1_900_000_000,
      quantity: 5,
      addons: [{ item: { name: "2 seats more", amount: 139_800, currency: "INR" } }],
    });
    const { document, Razorpay } = load(`${h.base}/checkout.js`);
    new Razorpay({ key: KEY_ID, subscription_id: subId, name: "Pinout" }).open();
    await waitFor(() => button(document, "Success"));
    const dialog = document.find((e) => e.getAttribute("role") === "dialog");
    expect(dialog?.textContent).toMatch(
      /Today you are charged ₹1,398\.00 \(the upfront amount\), then ₹3,495\.00 on .*2030\./,
    );
    expect(dialog?.textContent).not.toContain("only authorise the mandate");
  });

  it("closes on Escape with ondismiss, traps Tab, and reports a wrong key", async () => {
    const { subId } = await planAndSubscription(h, { start_at: 1_900_000_000 });
    const { document, Razorpay } = load(`${h.base}/checkout.js`);
    const ondismiss = vi.fn();
    new Razorpay({
      key: KEY_ID,
      subscription_id: subId,
      name: "Pinout",
      modal: { ondismiss },
    }).open();
    await waitFor(() => button(document, "Success"));
    const dialog = document.find((e) => e.getAttribute("role") === "dialog");
    expect(dialog?.textContent).toMatch(
      /You will be charged ₹699\.00 on .*2030; today we only authorise the mandate\./,
    );
    button(document, "Failure")?.focus();
    expect(document.press("Tab").defaultPrevented).toBe(true);
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Close checkout");
    document.press("Escape");
    expect(ondismiss).toHaveBeenCalledTimes(1);
    expect(document.find((e) => e.getAttribute("role") === "dialog")).toBeUndefined();

    new Razorpay({ key: "rzp_test_wrong", subscription_id: subId, name: "Pinout" }).open();
    const alert = await waitFor(() =>
      document.find((e) => e.getAttribute("role") === "alert" && e.textContent !== ""),
    );
    expect(alert.textContent).toBe("Authentication failed");
  });
});
