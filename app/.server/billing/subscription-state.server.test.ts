/**
 * The server's adapter to the state module: a stored row's state, and what recurs (MRR). Issue
 * 54: a team that added seats mid-cycle dropped out of both MRR figures, because its old
 * subscription was set to end (the new one only authorised) and "set to end" counted as churn.
 */
import { describe, expect, it } from "vitest";
import { recurs, stateOfRow } from "./subscription-state.server";
import { SWITCHED_PLAN } from "./subscriptions.server";

describe("recurs", () => {
  const row = (fields: Partial<Parameters<typeof recurs>[0]>) => ({
    status: "active" as const,
    cancelAtCycleEnd: false,
    cancelReason: null,
    ...fields,
  });

  it("counts a paying subscription, and one a switch or a change of seats replaces", () => {
    expect(recurs(row({}))).toBe(true);
    expect(recurs(row({ status: "pending" }))).toBe(true);
    expect(recurs(row({ cancelAtCycleEnd: true, cancelReason: SWITCHED_PLAN }))).toBe(true);
  });

  it("leaves out one ending for good, and one not paying", () => {
    expect(recurs(row({ cancelAtCycleEnd: true, cancelReason: "too expensive" }))).toBe(false);
    expect(recurs(row({ cancelAtCycleEnd: true }))).toBe(false);
    for (const status of ["authenticated", "halted", "paused", "cancelled", "created"] as const)
      expect(recurs(row({ status })), status).toBe(false);
  });
});

describe("stateOfRow", () => {
  it("reads a stored row's facts: a switch's own row, a UPI-app pause, an end without Pro", () => {
    const base = { cancelAtCycleEnd: false };
    expect(stateOfRow({ ...base, status: "authenticated", replacesSubscriptionId: "x" })).toBe(
      "switch-scheduled",
    );
    expect(stateOfRow({ ...base, status: "paused", pausedBy: "customer" })).toBe(
      "paused-in-upi-app",
    );
    expect(stateOfRow({ ...base, status: "cancelled", endReason: "refunded" })).toBe(
      "ended-without-pro",
    );
    expect(stateOfRow({ ...base, status: "cancelled", endReason: "customer" })).toBe("ended");
    expect(stateOfRow({ ...base, status: "created", checkoutVerifiedAt: new Date() })).toBe(
      "activating",
    );
  });
});
