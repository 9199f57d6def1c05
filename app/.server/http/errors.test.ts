import { describe, expect, it } from "vitest";
import { AppError, type AppErrorCode, isAppError } from "./errors";

describe("AppError", () => {
  it.each([
    ["invalid", 400],
    ["forbidden", 403],
    ["not_found", 404],
    ["conflict", 409],
    ["too_large", 413],
    ["rate_limited", 429],
    ["provider_failed", 502],
  ] as [AppErrorCode, number][])("answers %s with %i", (code, status) => {
    const error = new AppError(code, "Said to a person.", { field: "amount" });
    expect(error.status).toBe(status);
    expect(error.message).toBe("Said to a person.");
    expect(error.field).toBe("amount");
    expect(isAppError(error)).toBe(true);
  });

  it("is not any other error", () => {
    expect(isAppError(new Error("boom"))).toBe(false);
    expect(isAppError({ status: 400, message: "look-alike" })).toBe(false);
  });
});
