// @vitest-environment happy-dom
// What the site asks Razorpay's checkout for (issue 59, point 6): the options it opens the
// window with, caught by a stand-in `window.Razorpay` in a route stub.
import { vi } from "vitest";

// Testing Library needs React's development build (see app/routes/billing/billing.test.tsx).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { RazorpayOptions } from "~/lib/razorpay-checkout";
import { useRazorpayCheckout } from "./useRazorpayCheckout";

const opened: RazorpayOptions[] = [];

class StandIn {
  constructor(options: RazorpayOptions) {
    opened.push(options);
  }
  open() {}
  close() {}
  on() {}
}

function Page() {
  const { phase } = useRazorpayCheckout({
    scriptUrl: "/checkout.js",
    prefill: { name: "Asha Rao", email: "asha@example.com" },
    notes: {},
    open: { subscriptionId: "sub_Test0000000001", keyId: "rzp_test_x", description: "Pro" },
    answer: 1,
  });
  return <p>{phase}</p>;
}

afterEach(() => {
  cleanup();
  opened.length = 0;
  delete window.Razorpay;
});

describe("the checkout the site opens", () => {
  it("hides UPI Collect (a typed UPI ID), which NPCI ended: QR code and UPI app only", async () => {
    window.Razorpay = StandIn as unknown as NonNullable<typeof window.Razorpay>;
    const Stub = createRoutesStub([{ path: "/", Component: Page }]);
    render(<Stub initialEntries={["/"]} />);
    await screen.findByText("open");
    expect(opened).toHaveLength(1);
    expect(opened[0]?.subscription_id).toBe("sub_Test0000000001");
    expect(opened[0]?.config?.display.hide).toContainEqual({ method: "upi", flows: ["collect"] });
  });
});
