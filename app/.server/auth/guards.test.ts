import { describe, expect, it } from "vitest";
import {
  compileGuardTable,
  guards,
  guardsFor,
  keepPrivate,
  ROUTE_GUARDS,
  UnknownGuardError,
} from "./guards";
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

describe("keepPrivate", () => {
  const request = (path: string) => new Request(`http://localhost${path}`);

  it.each([
    "/account",
    "/account/usage",
    "/billing",
    "/login-success",
    "/admin/users",
    "/invoices/INV-1.pdf",
  ])("marks %s private, no-store, whatever the route set", (path) => {
    const response = new Response("page", { headers: { "Cache-Control": "public, max-age=60" } });
    expect(keepPrivate(request(path), response).headers.get("cache-control")).toBe(
      "private, no-store",
    );
  });

  it("marks a guard's sign-in redirect too", () => {
    const redirect = thrown(() => guards.auth({ session: null, url }))!;
    expect(keepPrivate(request("/admin/users"), redirect).headers.get("cache-control")).toBe(
      "private, no-store",
    );
  });

  it("copies a response whose headers cannot change", async () => {
    const immutable = Response.redirect("http://localhost/auth", 302);
    const marked = keepPrivate(request("/account"), immutable);
    expect(marked.status).toBe(302);
    expect(marked.headers.get("location")).toBe("http://localhost/auth");
    expect(marked.headers.get("cache-control")).toBe("private, no-store");
  });

  it("leaves public pages alone", () => {
    const response = new Response("home");
    expect(keepPrivate(request("/"), response).headers.get("cache-control")).toBeNull();
    expect(keepPrivate(request("/pricing"), response).headers.get("cache-control")).toBeNull();
  });
});
