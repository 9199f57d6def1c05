import { describe, expect, it } from "vitest";
import { loggablePath } from "./finish";

describe("the access log's path", () => {
  it("blanks the token of every auth endpoint that carries one in its path", () => {
    expect(loggablePath("/api/auth/reset-password/abc123SECRET")).toBe(
      "/api/auth/reset-password/[redacted]",
    );
    expect(loggablePath("/api/auth/reset-password/abc123SECRET/extra")).toBe(
      "/api/auth/reset-password/[redacted]/extra",
    );
  });

  it("leaves every other path as it is", () => {
    for (const path of ["/api/auth/reset-password", "/account", "/api/auth/sign-in/email"])
      expect(loggablePath(path)).toBe(path);
  });
});
