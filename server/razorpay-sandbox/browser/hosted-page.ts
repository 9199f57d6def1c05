/**
 * hosted.js: the hosted "update payment method" page's script (server HTML from ../hosted.ts).
 * The page carries what the script needs: the form's `data-action` is where it posts.
 */
import { formatAmount } from "./format";

interface AuthoriseReply {
  subscription: { status: string };
  payment: { status: string; amount: number; currency: string } | null;
  error?: { description?: string };
}

function required<T extends Element>(root: ParentNode, selector: string): T {
  const found = root.querySelector<T>(selector);
  if (!found) throw new Error(`Razorpay sandbox: ${selector} is missing from the page.`);
  return found;
}

function setUp(form: HTMLFormElement): void {
  const status = required<HTMLElement>(document, "#rzp-sbx-status");
  const current = required<HTMLElement>(document, "#rzp-sbx-current");
  const card = required<HTMLElement>(document, "#rzp-sbx-card");
  const upi = required<HTMLElement>(document, "#rzp-sbx-upi");
  const button = required<HTMLButtonElement>(form, "button[type=submit]");
  const radios = Array.from(form.querySelectorAll<HTMLInputElement>("input[name=method]"));
  const action = form.dataset.action ?? "";

  const selected = (): string => radios.find((radio) => radio.checked)?.value ?? "card";
  const sync = (): void => {
    const method = selected();
    card.hidden = method !== "card";
    upi.hidden = method !== "upi";
  };
  for (const radio of radios) radio.addEventListener("change", sync);
  sync();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void authorise();
  });

  async function authorise(): Promise<void> {
    const method = selected();
    const body: { method: string } = { method };
    button.disabled = true;
    status.textContent = "Authorising\u2026";
    try {
      const response = await fetch(action, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const json = (await response.json()) as AuthoriseReply | null;
      if (!response.ok || !json) {
        status.textContent = json?.error?.description || "Authorisation failed.";
        return;
      }
      const { subscription, payment } = json;
      const chosen = method === "upi" ? "UPI AutoPay" : "Card";
      let text = `Payment method authorised: ${chosen}.`;
      if (payment && payment.status === "captured")
        text += ` Charged ${formatAmount(payment.amount, payment.currency)}.`;
      text += ` The subscription is now ${subscription.status}.`;
      status.textContent = text;
      current.textContent = subscription.status;
    } catch {
      status.textContent = "The payment server could not be reached. Try again.";
    } finally {
      button.disabled = false;
    }
  }
}

const form = document.querySelector<HTMLFormElement>("#rzp-sbx-form");
if (form) setUp(form);
