import { describe, expect, it } from "vitest";
import { parseUserRoleArgs, USAGE } from "./user-role-args";

describe("npm run user:role's arguments", () => {
  it("takes an email (trimmed, lower-cased) and a role", () => {
    expect(parseUserRoleArgs(["--email", " ASHA@example.com ", "--role", "admin"])).toEqual({
      email: "asha@example.com",
      role: "admin",
    });
  });

  it.each([
    [[], "--email is required; --role must be admin or user"],
    [["--email", "asha@example.com"], "--role must be admin or user"],
    [["--email", "not-an-email", "--role", "admin"], "--email must be an email address"],
    [["--email", "asha@example.com", "--role", "owner"], "--role must be admin or user"],
    [["--email", "asha@example.com", "--role", "admin", "--force"], "Unknown option '--force'"],
  ])("refuses %j with the usage line", (args, message) => {
    const parsed = parseUserRoleArgs(args);
    expect(parsed).toHaveProperty("error");
    const error = (parsed as { error: string }).error;
    expect(error).toContain(message);
    expect(error).toContain(USAGE);
  });
});
