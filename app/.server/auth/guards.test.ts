import { describe, expect, it } from "vitest";
import { compileGuardTable, guards, guardsFor, ROUTE_GUARDS, UnknownGuardError } from "./guards";
import type { Session } from "./session";

const user: Session = {
  id: "s1",
  user: { id: "u1", email: "a@example.com", name: "A", role: "user", emailVerified: true },
};
const admin: Session = { ...user, user: { ...user.user, role: "admin" } };
const url = new URL("http://localhost/admin/users?tab=2");

function thrown(fn: () => void): Response | undefined {
  try {
    fn();
  } catch (error) {
    return error as Response;
  }
  return undefined;
}

describe("route guard table", () => {
  it("fails at start-up on an unknown guard name", () => {
    expect(() => compileGuardTable([{ path: "/x", guard: "staff" }])).toThrowError(
      UnknownGuardError,
    );
    expect(() => compileGuardTable([{ path: "/x", guard: "staff" }])).toThrow(
      'Unknown route guard "staff" on /x',
    );
    expect(() => compileGuardTable(ROUTE_GUARDS)).not.toThrow();
  });

  it.each([
    ["/account", ["auth"]],
    ["/account/security", ["auth"]],
    ["/billing", ["auth"]],
    ["/invoices", ["auth"]],
    ["/fix-subscription", ["auth"]],
    ["/admin", ["admin"]],
    ["/admin/users", ["admin"]],
    ["/admin/subscriptions", ["admin"]],
    ["/admin-fix-subscription", ["admin"]],
    ["/", []],
    ["/accounts", []],
    ["/pricing", []],
    ["/administrator", []],
  ])("%s needs %j", (path, expected) => {
    expect(guardsFor(path)).toEqual(expected);
  });
});

describe("guards", () => {
  it("auth sends anonymous visitors to sign-in with the path to come back to", () => {
    const response = thrown(() => guards.auth({ session: null, url }));
    expect(response?.status).toBe(302);
    expect(response?.headers.get("location")).toBe("/auth?next=%2Fadmin%2Fusers%3Ftab%3D2");
    expect(thrown(() => guards.auth({ session: user, url }))).toBeUndefined();
  });

  it("admin redirects the anonymous, refuses other users with 403 and admits admins", () => {
    expect(thrown(() => guards.admin({ session: null, url }))?.status).toBe(302);
    const refused = thrown(() => guards.admin({ session: user, url })) as unknown as {
      init: ResponseInit;
    };
    expect(refused.init.status).toBe(403);
    expect(thrown(() => guards.admin({ session: admin, url }))).toBeUndefined();
  });
});
