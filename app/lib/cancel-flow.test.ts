import { describe, expect, it } from "vitest";
import { cancelFlowSchema } from "./cancel-flow";

describe("the cancellation step's form", () => {
  it("takes no reason, a listed reason, or refuses another", () => {
    expect(cancelFlowSchema.parse({ intent: "cancel" })).toEqual({
      intent: "cancel",
      reason: null,
      details: "",
    });
    expect(
      cancelFlowSchema.parse({ intent: "take-offer", reason: "temporary", details: " busy " }),
    ).toEqual({ intent: "take-offer", reason: "temporary", details: "busy" });
    expect(cancelFlowSchema.safeParse({ intent: "cancel", reason: "because" }).success).toBe(false);
    expect(cancelFlowSchema.safeParse({ intent: "cancel", details: "x".repeat(501) }).success).toBe(
      false,
    );
    expect(cancelFlowSchema.safeParse({ intent: "pause" }).success).toBe(false);
  });
});
