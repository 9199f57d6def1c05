/**
 * The checkout modal behind `new Razorpay(options)`: the subscription summary, the method choice,
 * Success/Failure and their requests to the sandbox, focus kept inside while it is open.
 */
import { el, focusables, radio } from "./dom";
import { formatAmount, perText } from "./format";

/** The options Razorpay's checkout takes that the sandbox reads. */
export interface CheckoutOptions {
  key: string;
  subscription_id: string;
  name?: string;
  description?: string;
  image?: string;
  prefill?: { email?: string };
  handler?: (response: unknown) => void;
  modal?: { ondismiss?: () => void };
}

/** GET /checkout/subscriptions/:id (checkout.ts of the sandbox's server). */
interface SubscriptionInfo {
  status: string;
  plan: { name: string; amount: number; currency: string; period: string; interval: number };
  quantity: number;
  start_at: number | null;
  start_in_future: boolean;
  /** The upfront amount charged today at authentication (paise; 0 without one). */
  upfront: number;
  /** UPI AutoPay without a typed UPI ID: the mandate's link (a phone's UPI app) and its QR code. */
  upi: { uri: string; qr: string };
  /** A linked offer: its text, the method it needs and the first charge with it. */
  offer: {
    name: string;
    display_text: string | null;
    payment_method: "card" | "upi" | null;
    amount: number;
  } | null;
}

/** GET /checkout/subscriptions/:id/upi-scan: the buyer's answer in their UPI app, once given. */
interface ScanReply {
  scanned: boolean;
  payment_id?: string;
  razorpay_payment_id?: string;
  razorpay_subscription_id?: string;
  razorpay_signature?: string;
  error?: ApiError;
}

/** Razorpay's error body's `error`. */
interface ApiError {
  code?: string;
  description?: string;
  reason?: string;
}

interface Reply {
  ok: boolean;
  status: number;
  json: unknown;
}

interface PaymentForm {
  card: HTMLInputElement;
  upi: HTMLInputElement;
  /** Checked: the test card issued outside India (offered for a charge in another currency). */
  international: HTMLInputElement | null;
  alert: HTMLParagraphElement;
  success: HTMLButtonElement;
  failure: HTMLButtonElement;
}

/** The open modal. */
interface Modal {
  id: string;
  previousFocus: Element | null;
  overlay: HTMLDivElement;
  dialog: HTMLDivElement;
  close: HTMLButtonElement;
  body: HTMLDivElement;
  onKey: (event: KeyboardEvent) => void;
  form?: PaymentForm;
}

type Outcome = "success" | "failure";
type Listener = (payload: unknown) => void;

const dates = new Intl.DateTimeFormat("en-IN", { day: "numeric", month: "long", year: "numeric" });
let counter = 0;

function errorOf(json: unknown): ApiError | undefined {
  if (typeof json !== "object" || json === null || !("error" in json)) return undefined;
  const { error } = json;
  return typeof error === "object" && error !== null ? (error as ApiError) : undefined;
}

/** A listener's exception must not stop the others, nor vanish. */
function later(error: unknown): void {
  setTimeout(() => {
    throw error;
  }, 0);
}

export class SandboxCheckout {
  private readonly listeners: Record<string, Listener[]> = {};
  private ui: Modal | null = null;
  private busy = false;
  /** Stops waiting for the UPI app's answer to the QR code (another method, or closed). */
  private stopScan: (() => void) | null = null;

  constructor(
    private readonly options: CheckoutOptions,
    /** The sandbox's root URL, which serves checkout.js and the endpoints below. */
    private readonly base: string,
  ) {
    if (!options || typeof options.key !== "string" || !options.key)
      throw new Error("Razorpay: the key option is required.");
    if (typeof options.subscription_id !== "string" || !options.subscription_id)
      throw new Error(
        "Razorpay sandbox: pass subscription_id (only subscription checkout is simulated).",
      );
  }

  on(event: string, fn: Listener): this {
    if (typeof fn === "function") (this.listeners[event] ??= []).push(fn);
    return this;
  }

  open(): this {
    if (this.ui) return this;
    const o = this.options;
    const id = `rzp-sbx-${++counter}`;
    const overlay = el("div", "rzp-sbx-overlay");
    const dialog = el("div", "rzp-sbx-dialog");
    dialog.setAttribute("role", "dialog");
    dialog.setAttribute("aria-modal", "true");
    dialog.setAttribute("aria-labelledby", `${id}-title`);
    dialog.tabIndex = -1;
    const header = el("div", "rzp-sbx-header");
    if (o.image) {
      const image = el("img", "rzp-sbx-logo");
      image.alt = "";
      image.src = o.image;
      header.appendChild(image);
    }
    const heading = el("h2", "rzp-sbx-heading", o.name || "Checkout");
    heading.id = `${id}-title`;
    header.appendChild(heading);
    header.appendChild(el("span", "rzp-sbx-badge", "Test mode"));
    const close = el("button", "rzp-sbx-close", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", "Close checkout");
    close.addEventListener("click", () => {
      if (!this.busy) this.dismiss();
    });
    header.appendChild(close);
    dialog.appendChild(header);
    if (o.description) dialog.appendChild(el("p", "rzp-sbx-muted", o.description));
    const body = el("div", "rzp-sbx-body");
    body.appendChild(el("p", "rzp-sbx-muted", "Loading\u2026"));
    dialog.appendChild(body);
    overlay.appendChild(dialog);
    const onKey = (event: KeyboardEvent) => this.onKey(event);
    const ui: Modal = {
      id,
      previousFocus: document.activeElement,
      overlay,
      dialog,
      close,
      body,
      onKey,
    };
    document.addEventListener("keydown", onKey, true);
    document.documentElement.classList.add("rzp-sbx-open");
    document.body.appendChild(overlay);
    this.ui = ui;
    dialog.focus();
    void this.load(ui);
    return this;
  }

  /** Closes the modal without calling modal.ondismiss (like Razorpay's close()). */
  close(): void {
    const ui = this.ui;
    if (!ui) return;
    this.ui = null;
    this.busy = false;
    this.stopScan?.();
    document.removeEventListener("keydown", ui.onKey, true);
    if (ui.overlay.parentNode) ui.overlay.parentNode.removeChild(ui.overlay);
    document.documentElement.classList.remove("rzp-sbx-open");
    const previous = ui.previousFocus as HTMLElement | null;
    if (previous && typeof previous.focus === "function") previous.focus();
  }

  private emit(event: string, payload: unknown): void {
    for (const fn of (this.listeners[event] ?? []).slice()) {
      try {
        fn(payload);
      } catch (error) {
        later(error);
      }
    }
  }

  private async request(method: "GET" | "POST", path: string, body?: object): Promise<Reply> {
    const headers: Record<string, string> = { Accept: "application/json" };
    const init: RequestInit = { method, headers };
    if (body) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(this.base + path, init);
    return response.json().then(
      (json: unknown) => ({ ok: response.ok, status: response.status, json }),
      () => ({ ok: false, status: response.status, json: null }),
    );
  }

  private async load(ui: Modal): Promise<void> {
    const o = this.options;
    const path = `/checkout/subscriptions/${encodeURIComponent(o.subscription_id)}?key_id=${encodeURIComponent(o.key)}`;
    let reply: Reply;
    try {
      reply = await this.request("GET", path);
    } catch {
      if (this.ui === ui)
        this.renderError(ui, "The payment server could not be reached. Close and try again.");
      return;
    }
    if (this.ui !== ui) return;
    if (!reply.ok)
      this.renderError(
        ui,
        errorOf(reply.json)?.description || "This subscription could not be loaded.",
      );
    else this.render(ui, reply.json as SubscriptionInfo);
  }

  private renderError(ui: Modal, message: string): void {
    ui.body.textContent = "";
    const alert = el("p", "rzp-sbx-alert", message);
    alert.setAttribute("role", "alert");
    ui.body.appendChild(alert);
  }

  private render(ui: Modal, info: SubscriptionInfo): void {
    const o = this.options;
    if (info.status !== "created") {
      this.renderError(ui, `This subscription cannot be authorised in ${info.status} status.`);
      return;
    }
    const body = ui.body;
    body.textContent = "";
    const quantity = info.quantity || 1;
    const currency = info.plan.currency;
    const money = (amount: number) => formatAmount(amount, currency);
    const amountText = money(info.plan.amount * quantity);
    const times = quantity > 1 ? ` \u00d7 ${quantity}` : "";
    body.appendChild(el("p", "rzp-sbx-muted", info.plan.name + times));
    const amount = el("p", "rzp-sbx-amount", `${amountText} `);
    amount.appendChild(el("span", "rzp-sbx-per", perText(info.plan.period, info.plan.interval)));
    body.appendChild(amount);
    const offer = info.offer;
    if (offer) {
      const method =
        offer.payment_method === "upi"
          ? " (UPI only)"
          : offer.payment_method === "card"
            ? " (cards only)"
            : "";
      const text = `Offer ${offer.name}${method}: ${offer.display_text ?? ""} First charge ${money(offer.amount)}.`;
      body.appendChild(el("p", "rzp-sbx-note", text.replace(":  ", ": ")));
    }
    const firstText = offer ? money(offer.amount) : amountText;
    if (info.start_in_future && info.start_at) {
      const when = dates.format(new Date(info.start_at * 1000));
      const note =
        info.upfront > 0
          ? `Today you are charged ${money(info.upfront)} (the upfront amount), then ${firstText} on ${when}.`
          : `You will be charged ${firstText} on ${when}; today we only authorise the mandate.`;
      body.appendChild(el("p", "rzp-sbx-note", note));
    }
    const fieldset = el("fieldset", "rzp-sbx-methods");
    fieldset.appendChild(el("legend", null, "Payment method"));
    const card = radio(fieldset, `${ui.id}-method`, "card", "Card", true);
    // UPI moves rupees only: a charge in another currency is offered cards alone.
    const upi = radio(fieldset, `${ui.id}-method`, "upi", "UPI AutoPay", false);
    if (currency !== "INR") upi.closest("label")!.hidden = true;
    body.appendChild(fieldset);
    let international: HTMLInputElement | null = null;
    let cardPanel: HTMLElement;
    if (currency === "INR") {
      cardPanel = el("p", "rzp-sbx-testcard", "Test card 4718 6091 0820 4366");
    } else {
      cardPanel = el("fieldset", "rzp-sbx-methods");
      cardPanel.appendChild(el("legend", null, "Test card"));
      international = radio(
        cardPanel,
        `${ui.id}-card`,
        "international",
        "Issued outside India: 4012 8888 8888 1881",
        true,
      );
      radio(cardPanel, `${ui.id}-card`, "domestic", "Issued in India: 4718 6091 0820 4366", false);
    }
    body.appendChild(cardPanel);
    // No UPI ID to type (NPCI ended UPI Collect on 28 Feb 2026): a QR code to scan with the UPI
    // app on a computer; on a phone, a link that opens the UPI app. Success and Failure stand for
    // what the buyer chooses in their app, as they stand for the bank's answer to a card.
    const upiPanel = el("div", "rzp-sbx-field");
    const phone =
      typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
    if (phone) {
      const intent = el("a", "rzp-sbx-button", "Open your UPI app");
      intent.href = info.upi.uri;
      upiPanel.appendChild(intent);
      upiPanel.appendChild(el("p", "rzp-sbx-muted", "Approve the AutoPay mandate there."));
    } else {
      const qr = el("img", "rzp-sbx-qr");
      qr.src = info.upi.qr;
      qr.alt = "QR code of the UPI AutoPay mandate";
      qr.width = 176;
      qr.height = 176;
      upiPanel.appendChild(qr);
      upiPanel.appendChild(
        el("p", "rzp-sbx-muted", "Scan with your UPI app and approve the AutoPay mandate there."),
      );
    }
    upiPanel.hidden = true;
    body.appendChild(upiPanel);
    const sync = () => {
      cardPanel.hidden = !card.checked;
      upiPanel.hidden = !upi.checked;
      // Showing the QR code: wait for the buyer's answer from their UPI app.
      if (upi.checked && !phone) this.waitForScan(ui);
      else this.stopScan?.();
    };
    card.addEventListener("change", sync);
    upi.addEventListener("change", sync);
    if (o.prefill && o.prefill.email)
      body.appendChild(el("p", "rzp-sbx-muted", `Paying as ${o.prefill.email}`));
    const alert = el("p", "rzp-sbx-alert");
    alert.setAttribute("role", "alert");
    body.appendChild(alert);
    const actions = el("div", "rzp-sbx-actions");
    const success = el("button", "rzp-sbx-button rzp-sbx-primary", "Success");
    success.type = "button";
    const failure = el("button", "rzp-sbx-button rzp-sbx-danger", "Failure");
    failure.type = "button";
    success.addEventListener("click", () => void this.pay("success", success));
    failure.addEventListener("click", () => void this.pay("failure", failure));
    actions.appendChild(success);
    actions.appendChild(failure);
    body.appendChild(actions);
    const footnote =
      "Sandbox checkout: no real money moves. Success and Failure stand for the bank's answer.";
    body.appendChild(el("p", "rzp-sbx-footnote", footnote));
    ui.form = { card, upi, international, alert, success, failure };
  }

  private setBusy(busy: boolean): void {
    this.busy = busy;
    const ui = this.ui;
    if (!ui || !ui.form) return;
    ui.form.success.disabled = busy;
    ui.form.failure.disabled = busy;
    ui.close.disabled = busy;
    if (busy) ui.dialog.setAttribute("aria-busy", "true");
    else ui.dialog.removeAttribute("aria-busy");
  }

  private async pay(outcome: Outcome, pressed: HTMLButtonElement): Promise<void> {
    const ui = this.ui;
    const o = this.options;
    if (!ui || !ui.form || this.busy) return;
    const form = ui.form;
    const method = form.upi.checked ? "upi" : "card";
    const body: { key_id: string; method: string; outcome: Outcome; card?: string } = {
      key_id: o.key,
      method,
      outcome,
    };
    if (method === "card" && form.international)
      body.card = form.international.checked ? "international" : "domestic";
    form.alert.textContent = "";
    this.setBusy(true);
    const path = `/checkout/subscriptions/${encodeURIComponent(o.subscription_id)}/pay`;
    let reply: Reply;
    try {
      reply = await this.request("POST", path, body);
    } catch {
      this.setBusy(false);
      if (this.ui !== ui) return;
      form.alert.textContent = "The payment server could not be reached. Try again.";
      if (!ui.dialog.contains(document.activeElement)) pressed.focus();
      return;
    }
    this.setBusy(false);
    if (this.ui !== ui) return;
    if (reply.ok) {
      this.close();
      if (typeof o.handler === "function") o.handler(reply.json);
      return;
    }
    const error = errorOf(reply.json) ?? {
      code: "BAD_REQUEST_ERROR",
      description: "Payment failed",
      reason: "payment_failed",
    };
    if (error.reason === "payment_failed") {
      form.alert.textContent = "Payment failed. Nothing was charged. Try again or close.";
      this.emit("payment.failed", { error });
    } else {
      form.alert.textContent = error.description || "The payment could not be made.";
    }
    if (!ui.dialog.contains(document.activeElement)) pressed.focus();
  }

  /**
   * While the UPI QR code shows: asks every second whether the buyer answered in their UPI app
   * (the sandbox's `…/scan` control route stands for the scan), and finishes as a payment made
   * here does. A failure from before this wait began is not news; a later one is shown once.
   */
  private waitForScan(ui: Modal): void {
    if (this.stopScan) return;
    const o = this.options;
    const path = `/checkout/subscriptions/${encodeURIComponent(o.subscription_id)}/upi-scan?key_id=${encodeURIComponent(o.key)}`;
    let seen: string | null | undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      this.stopScan = null;
    };
    this.stopScan = stop;
    const tick = async (): Promise<void> => {
      try {
        const scan = (await this.request("GET", path)).json as ScanReply | null;
        if (stopped || this.ui !== ui || !scan) return;
        const news = scan.scanned && scan.payment_id !== seen;
        if (seen === undefined && scan.error) seen = scan.payment_id ?? null;
        else if (news && scan.error) {
          seen = scan.payment_id ?? null;
          if (ui.form)
            ui.form.alert.textContent = "Payment failed. Nothing was charged. Try again or close.";
          this.emit("payment.failed", { error: scan.error });
        } else if (news && scan.razorpay_payment_id) {
          stop();
          this.close();
          if (typeof o.handler === "function")
            o.handler({
              razorpay_payment_id: scan.razorpay_payment_id,
              razorpay_subscription_id: scan.razorpay_subscription_id,
              razorpay_signature: scan.razorpay_signature,
            });
          return;
        }
        if (seen === undefined) seen = null;
      } catch {
        // Unreachable for a moment: the next tick asks again.
      }
      if (!stopped) timer = setTimeout(() => void tick(), 1000);
    };
    void tick();
  }

  private onKey(event: KeyboardEvent): void {
    const ui = this.ui;
    if (!ui) return;
    if (event.key === "Escape" || event.key === "Esc") {
      event.preventDefault();
      event.stopPropagation();
      if (!this.busy) this.dismiss();
      return;
    }
    if (event.key !== "Tab") return;
    const nodes = focusables(ui.dialog);
    const active = document.activeElement;
    const first = nodes[0];
    const last = nodes[nodes.length - 1];
    if (!first || !last) {
      event.preventDefault();
      ui.dialog.focus();
      return;
    }
    const inside = ui.dialog.contains(active) && active !== ui.dialog;
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  }

  private dismiss(): void {
    this.close();
    const modal = this.options.modal;
    if (modal && typeof modal.ondismiss === "function") modal.ondismiss();
  }
}
