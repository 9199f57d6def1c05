import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, securityHeaders } from "./security-headers";

describe("security headers", () => {
  it("allow scripts only from this origin or inline ones with a listed hash", () => {
    const csp = contentSecurityPolicy({
      scriptHashes: ["sha256-abc"],
      https: false,
      development: false,
    });
    expect(csp).toContain("script-src 'self' 'sha256-abc'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe");
    expect(csp).not.toContain("upgrade-insecure-requests");
  });

  it("add HSTS and upgrade-insecure-requests only on https", () => {
    const plain = securityHeaders({ https: false, development: false });
    const secure = securityHeaders({ https: true, development: false });
    expect(plain["Strict-Transport-Security"]).toBeUndefined();
    expect(secure["Strict-Transport-Security"]).toMatch(/^max-age=\d+/);
    expect(secure["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
    expect(secure["X-Content-Type-Options"]).toBe("nosniff");
  });

  it("allow Google Analytics hosts only when it is configured", () => {
    const without = contentSecurityPolicy({ https: true, development: false });
    const withGa = contentSecurityPolicy({
      https: true,
      development: false,
      googleAnalytics: true,
    });
    expect(without).not.toContain("googletagmanager");
    expect(withGa).toContain("script-src 'self' https://www.googletagmanager.com");
    expect(withGa).toContain("https://*.google-analytics.com");
  });

  it("allow Razorpay's checkout only in Razorpay mode", () => {
    const sandbox = securityHeaders({ https: true, development: false });
    const live = securityHeaders({
      https: true,
      development: false,
      razorpayCheckout: true,
    });
    expect(sandbox["Content-Security-Policy"]).not.toContain("razorpay");
    expect(sandbox["Permissions-Policy"]).toContain("payment=()");
    expect(live["Content-Security-Policy"]).toContain(
      "script-src 'self' https://checkout.razorpay.com",
    );
    expect(live["Content-Security-Policy"]).toContain(
      "frame-src https://api.razorpay.com https://checkout.razorpay.com",
    );
    expect(live["Content-Security-Policy"]).not.toContain("unsafe");
    expect(live["Permissions-Policy"]).toContain('payment=(self "https://api.razorpay.com"');
  });
});
