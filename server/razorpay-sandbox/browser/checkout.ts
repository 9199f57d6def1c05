/**
 * checkout.js: `window.Razorpay` with the contract of Razorpay's checkout.js (subscriptions
 * only). vite/sandbox-assets.ts compiles this module and its imports into one classic script.
 * No eval, no inline styles (the site's CSP): the look comes from checkout.css by class name. The
 * script learns the sandbox's address from its own URL, so the server writes nothing into it.
 */
import { type CheckoutOptions, SandboxCheckout } from "./checkout-modal";

interface SandboxRazorpay {
  new (options: CheckoutOptions): SandboxCheckout;
  (options: CheckoutOptions): SandboxCheckout;
  readonly sandbox: true;
}

/** `window` as seen by this script: another checkout.js (Razorpay's or ours) may be there. */
const host = window as unknown as { Razorpay?: { sandbox?: unknown } };

/** The sandbox's root: this script's URL without `/checkout.js` and its query. */
function scriptBase(): string {
  const script = document.currentScript as HTMLScriptElement | null;
  let src = script && script.src ? script.src : "";
  if (!src) {
    const scripts = document.getElementsByTagName("script");
    for (let i = scripts.length - 1; i >= 0; i--) {
      const candidate = scripts[i]?.src ?? "";
      if (/\/checkout\.js([?#]|$)/.test(candidate)) {
        src = candidate;
        break;
      }
    }
  }
  return src.replace(/[?#].*$/, "").replace(/\/checkout\.js$/, "");
}

function install(): void {
  const base = scriptBase();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = `${base}/checkout.css`;
  (document.head || document.documentElement).appendChild(link);

  // Callable with or without `new`, and `instanceof Razorpay` holds, as in Razorpay's script.
  const Razorpay = function Razorpay(options: CheckoutOptions) {
    return new SandboxCheckout(options, base);
  } as SandboxRazorpay;
  Razorpay.prototype = SandboxCheckout.prototype;
  host.Razorpay = Object.assign(Razorpay, { sandbox: true as const });
}

if (!host.Razorpay || !host.Razorpay.sandbox) install();
