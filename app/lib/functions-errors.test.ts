import { describe, expect, it } from "vitest";
import { codeForHttpStatus, FUNCTION_STATUSES } from "./functions-errors";

describe("callable function statuses (spec section 8)", () => {
  it("carry the spec's HTTP status and lowercase code", () => {
    expect(
      Object.fromEntries(
        Object.entries(FUNCTION_STATUSES).map(([status, { code, http }]) => [status, [http, code]]),
      ),
    ).toEqual({
      INVALID_ARGUMENT: [400, "invalid-argument"],
      UNAUTHENTICATED: [401, "unauthenticated"],
      PERMISSION_DENIED: [403, "permission-denied"],
      NOT_FOUND: [404, "not-found"],
      ABORTED: [409, "aborted"],
      RESOURCE_EXHAUSTED: [429, "resource-exhausted"],
      CANCELLED: [499, "cancelled"],
      INTERNAL: [500, "internal"],
      UNIMPLEMENTED: [501, "unimplemented"],
      UNAVAILABLE: [503, "unavailable"],
      DEADLINE_EXCEEDED: [504, "deadline-exceeded"],
    });
  });

  it("maps no response (status 0) and unknown statuses to internal", () => {
    expect(codeForHttpStatus(0)).toBe("internal");
    expect(codeForHttpStatus(502)).toBe("internal");
  });
});
