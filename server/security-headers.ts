export interface SecurityHeaderOptions {
  /**
   * `sha256-…` sources of the page's inline scripts (decision record 0022): an HTML page's
   * policy allows exactly its own inline scripts, so the same bytes carry the same header and can
   * be cached and shared. Other responses have none.
   */
  scriptHashes?: readonly string[];
  /** https sites also get HSTS and upgrade-insecure-requests. */
  https: boolean;
  /** Vite's dev server needs eval and a websocket for hot reloading; production never does. */
  development: boolean;
  /** Google Analytics is configured: allow its script and beacons (loaded only after consent). */
  googleAnalytics?: boolean;
  /** Real Razorpay checkout: its script, frames and API (never allowed for the sandbox). */
  razorpayCheckout?: boolean;
}

const RAZORPAY_SCRIPT = "https://checkout.razorpay.com";
const RAZORPAY_FRAMES = ["https://api.razorpay.com", "https://checkout.razorpay.com"];
const RAZORPAY_CONNECT = ["https://api.razorpay.com", "https://lumberjack.razorpay.com"];

const GA_SCRIPT = "https://www.googletagmanager.com";
const GA_CONNECT = ["https://*.google-analytics.com", "https://*.analytics.google.com", GA_SCRIPT];

/** The Content-Security-Policy: scripts only from this origin, or inline ones whose hash it lists. */
export function contentSecurityPolicy({
  scriptHashes = [],
  https,
  development,
  googleAnalytics = false,
  razorpayCheckout = false,
}: SecurityHeaderOptions): string {
  const ga = googleAnalytics;
  const rzp = razorpayCheckout;
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": [
      "'self'",
      ...scriptHashes.map((hash) => `'${hash}'`),
      ...(ga ? [GA_SCRIPT] : []),
      ...(rzp ? [RAZORPAY_SCRIPT] : []),
      ...(development ? ["'unsafe-eval'"] : []),
    ],
    "style-src": ["'self'", ...(development ? ["'unsafe-inline'"] : [])],
    "img-src": [
      "'self'",
      "data:",
      ...(ga ? GA_CONNECT : []),
      ...(rzp ? ["https://*.razorpay.com"] : []),
    ],
    "font-src": ["'self'"],
    "connect-src": [
      "'self'",
      ...(ga ? GA_CONNECT : []),
      ...(rzp ? RAZORPAY_CONNECT : []),
      ...(development ? ["ws:"] : []),
    ],
    ...(rzp ? { "frame-src": RAZORPAY_FRAMES } : {}),
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "manifest-src": ["'self'"],
    "worker-src": ["'self'"],
  };
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  if (https) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

/** Headers every response carries. */
export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // Razorpay's checkout frame may use the Payment Request API (UPI intent, saved cards).
    "Permissions-Policy": `camera=(), microphone=(), geolocation=(), payment=${
      options.razorpayCheckout ? `(self ${RAZORPAY_FRAMES.map((o) => `"${o}"`).join(" ")})` : "()"
    }, usb=(), serial=()`,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  if (options.https) {
    headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  }
  return headers;
}
