/**
 * The refund policy and the self-serve refund say the same thing: the window the code enforces is
 * the one content/legal/refund.md promises, and the policy tells the customer where the button is.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REFUND_WINDOW_DAYS } from "~/lib/refund-window";

const policy = fs.readFileSync(
  path.resolve(import.meta.dirname, "../../../content/legal/refund.md"),
  "utf8",
);

describe("the self-serve refund and the refund policy", () => {
  it("enforce the same window", () => {
    expect(policy).toContain(
      `ask for a full refund within ${REFUND_WINDOW_DAYS} days of the first payment of a new subscription`,
    );
    expect(policy).toContain(`**The ${REFUND_WINDOW_DAYS}-day refund of a first payment**`);
  });

  it("tells the customer where to ask for it", () => {
    expect(policy).toContain("**Account → Subscription** and choose **Request a refund**");
  });
});
