/**
 * Razorpay's browser checkout (checkout.js): loaded on demand from the configured URL (Razorpay,
 * or the sandbox's stand-in with the same contract), then `new Razorpay(options).open()`.
 */
export interface RazorpayHandlerResponse {
  razorpay_payment_id: string;
  razorpay_subscription_id: string;
  razorpay_signature: string;
}

export interface RazorpayOptions {
  key: string;
  subscription_id: string;
  name: string;
  description: string;
  prefill?: { name?: string; email?: string; contact?: string };
  notes?: Record<string, string>;
  theme?: { color?: string };
  /** Standard Checkout's display settings: here, the payment flows it must not offer. */
  config?: { display: { hide: { method: string; flows?: string[] }[] } };
  handler: (response: RazorpayHandlerResponse) => void;
  modal?: { ondismiss?: () => void };
}

/**
 * NPCI ended UPI Collect (typing a UPI ID) on 28 Feb 2026, for new AutoPay mandates too: a buyer
 * scans a QR code on a computer or opens their UPI app on a phone. Razorpay's migration notes
 * hide the collect flow with this display setting (issue 59, point 6).
 */
export const WITHOUT_UPI_COLLECT: NonNullable<RazorpayOptions["config"]> = {
  display: { hide: [{ method: "upi", flows: ["collect"] }] },
};

export interface RazorpayInstance {
  open(): void;
  close(): void;
  on(
    event: "payment.failed",
    listener: (response: { error: { description?: string } }) => void,
  ): void;
}

type RazorpayConstructor = new (options: RazorpayOptions) => RazorpayInstance;

declare global {
  interface Window {
    Razorpay?: RazorpayConstructor;
  }
}

let loading: Promise<RazorpayConstructor> | undefined;

export function loadCheckout(src: string): Promise<RazorpayConstructor> {
  if (window.Razorpay) return Promise.resolve(window.Razorpay);
  loading ??= new Promise<RazorpayConstructor>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () =>
      window.Razorpay
        ? resolve(window.Razorpay)
        : reject(new Error("checkout.js did not define Razorpay"));
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(
        new Error("The payment window could not be loaded. Check your connection and try again."),
      );
    };
    document.head.appendChild(script);
  });
  return loading;
}
