import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "../../routes";
import { assertGuardName, guardMiddleware, guards, keepPrivate, UnknownGuardError } from "./guards";
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

/** Which guard protects each path of app/routes.ts: derived from the nesting, never typed twice. */
function guardedPaths(
  entries: readonly RouteConfigEntry[],
  parent = "",
  guard: string | null = null,
): Map<string, string | null> {
  const result = new Map<string, string | null>();
  for (const entry of entries) {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    const own = /^routes\/guards\/(\w+)\.tsx$/.exec(entry.file)?.[1] ?? guard;
    if (entry.path || entry.index) result.set(path || "/", own);
    for (const [child, value] of guardedPaths(entry.children ?? [], path, own))
      result.set(child, value);
  }
  return result;
}

describe("which routes are guarded", () => {
  const table = guardedPaths(routes);

  it.each([
    ["/account", "account"],
    ["/account/security", "account"],
    ["/account/security/export", "account"],
    ["/checkout", "auth"],
    ["/billing", "account"],
    ["/invoices", "account"],
    ["/invoices/:file", "account"],
    ["/fix-subscription", "account"],
    ["/login-success", "auth"],
    ["/admin", "admin"],
    ["/admin/users", "admin"],
    ["/admin/releases/:id", "admin"],
    ["/admin/invoices/:file", "admin"],
    ["/admin-fix-subscription", "admin"],
    ["/", null],
    ["/pricing", null],
    ["/login-via", null],
    ["/api/admin/releases", null],
  ])("%s needs %s", (path, expected) => {
    expect(table.has(path), path).toBe(true);
    expect(table.get(path)).toBe(expected);
  });

  it("guards every page under /account, /admin and the billing pages", () => {
    for (const [path, guard] of table) {
      if (/^\/(account|billing|invoices|fix-subscription)(\/|$)/.test(path))
        expect(guard, path).toBe("account");
      if (/^\/checkout(\/|$)/.test(path)) expect(guard, path).toBe("auth");
      if (/^\/admin(\/|-|$)/.test(path)) expect(guard, path).toBe("admin");
    }
  });

  it("fails when the module loads on an unknown guard name", () => {
    expect(() => assertGuardName("staff")).toThrowError(UnknownGuardError);
    expect(() => guardMiddleware("staff")).toThrow('Unknown route guard "staff"');
    expect(() => guardMiddleware("admin")).not.toThrow();
  });
});

describe("guards", () => {
  // The account area's guard has the same rule as auth; it only reads more with the session.
  it.each(["auth", "account"] as const)(
    "%s sends anonymous visitors to sign-in with the path to come back to, never cached",
    (name) => {
      const response = thrown(() => guards[name]({ session: null, url }));
      expect(response?.status).toBe(302);
      expect(response?.headers.get("location")).toBe("/auth?next=%2Fadmin%2Fusers%3Ftab%3D2");
      expect(response?.headers.get("cache-control")).toBe("private, no-store");
      expect(thrown(() => guards[name]({ session: user, url }))).toBeUndefined();
    },
  );

  it("admin redirects the anonymous, refuses other users with 403 and admits admins", () => {
    expect(thrown(() => guards.admin({ session: null, url }))?.status).toBe(302);
    const refused = thrown(() => guards.admin({ session: user, url })) as unknown as {
      init: ResponseInit;
    };
    expect(refused.init.status).toBe(403);
    expect(new Headers(refused.init.headers).get("cache-control")).toBe("private, no-store");
    expect(thrown(() => guards.admin({ session: admin, url }))).toBeUndefined();
  });
});

describe("keepPrivate", () => {
  it("marks a response private, no-store, whatever it said before", () => {
    const response = new Response("page", { headers: { "Cache-Control": "public, max-age=60" } });
    expect(keepPrivate(response).headers.get("cache-control")).toBe("private, no-store");
  });

  it("copies a response whose headers cannot change", () => {
    const marked = keepPrivate(Response.redirect("http://localhost/auth", 302));
    expect(marked.status).toBe(302);
    expect(marked.headers.get("location")).toBe("http://localhost/auth");
    expect(marked.headers.get("cache-control")).toBe("private, no-store");
  });
});
