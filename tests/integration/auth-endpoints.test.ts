/**
 * Issue 25, point 1: Better Auth's endpoints reachable over HTTP are an allow-list
 * (app/.server/auth/http-endpoints.ts, decision 0028). Every endpoint the running configuration
 * registers is enumerated from Better Auth itself: one that is not on the list must answer 404
 * over HTTP even to an admin whose role is stored in the database, so an upgrade that adds
 * endpoints fails here instead of opening them.
 */
import { betterAuth } from "better-auth";
import { memoryAdapter } from "better-auth/adapters/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authPlugins } from "~/.server/auth/auth.server";
import { HTTP_AUTH_ENDPOINTS } from "~/.server/auth/http-endpoints";
import {
  authPost,
  BROWSER_HEADERS,
  cookiesFrom,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { engines } from "../support/engines";
import type { RunningTestServer } from "../support/server";

const PASSWORD = "allow-list-password-1";

interface EndpointInfo {
  path: string;
  methods: string[];
}

/** The endpoints Better Auth routes over HTTP with the site's plugins (server-only ones have no path). */
function routedEndpoints(): EndpointInfo[] {
  const instance = betterAuth({
    secret: "enumeration-only-secret-0123456789abcdef",
    baseURL: "http://localhost:3000",
    basePath: "/api/auth",
    database: memoryAdapter({}),
    emailAndPassword: { enabled: true },
    socialProviders: { google: { clientId: "id", clientSecret: "secret" } },
    plugins: authPlugins(),
  });
  const found: EndpointInfo[] = [];
  for (const endpoint of Object.values(instance.api) as {
    path?: string;
    options?: { method?: string | string[] };
  }[]) {
    if (!endpoint.path) continue;
    const method = endpoint.options?.method ?? "POST";
    const methods = Array.isArray(method) ? method : method === "*" ? ["GET", "POST"] : [method];
    found.push({ path: endpoint.path, methods });
  }
  return found;
}

describe("the Better Auth HTTP allow-list", () => {
  it("names only endpoints that exist, and leaves the admin plugin's off HTTP", () => {
    const paths = new Set(routedEndpoints().map((endpoint) => endpoint.path));
    for (const allowed of HTTP_AUTH_ENDPOINTS) expect(paths, allowed).toContain(allowed);
    // The plugin is there (roles are stored by it), so its endpoints are what the list closes.
    expect(paths).toContain("/admin/update-user");
    expect([...HTTP_AUTH_ENDPOINTS].filter((path) => path.startsWith("/admin/"))).toEqual([]);
  });
});

describe.each(engines())("Better Auth endpoints over HTTP on $name", (engine) => {
  let server: RunningTestServer;
  let boss: string;
  let admin: string;
  let customerId: string;

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      env: { AUTH_RATE_LIMIT: "1000" },
    }));
    await signUpVerified(server, { name: "Ravi", email: "ravi@example.com", password: PASSWORD });
    await signUpVerified(server, {
      name: "Customer",
      email: "customer@example.com",
      password: PASSWORD,
    });
    const idOf = async (email: string) => {
      const html = await (
        await getWithCookies(server, `/admin/users?q=${encodeURIComponent(email)}`, boss)
      ).text();
      return /name="userId" value="([^"]+)"/.exec(html)?.[1] ?? "";
    };
    // An admin whose role is stored in the database (as /admin/users or `npm run user:role` do).
    const promoted = await postForm(server, "/admin/users", boss, {
      intent: "set-role",
      userId: await idOf("ravi@example.com"),
      role: "admin",
    });
    expect(promoted.status).toBe(200);
    const signedIn = await authPost(server, "/sign-in/email", {
      email: "ravi@example.com",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    admin = cookiesFrom(signedIn);
    customerId = await idOf("customer@example.com");
    expect(customerId).not.toBe("");
  });
  afterAll(async () => {
    await server?.stop();
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}/api/auth${path}`, {
      method,
      redirect: "manual",
      headers: {
        ...BROWSER_HEADERS,
        origin: server.url,
        cookie: admin,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("answers 404 to every endpoint that is not on the list, for a stored admin", async () => {
    const closed = routedEndpoints().filter(({ path }) => !HTTP_AUTH_ENDPOINTS.has(path));
    expect(closed.length).toBeGreaterThan(15);
    for (const { path, methods } of closed) {
      const concrete = path.replace(/:[A-Za-z]+/g, "x");
      for (const method of methods) {
        const response = await call(method, concrete, method === "GET" ? undefined : {});
        expect(response.status, `${method} ${path}`).toBe(404);
      }
    }
  });

  it("refuses the takeover requests of the review and changes nothing", async () => {
    const attempts: [string, string, unknown][] = [
      ["POST", "/admin/update-user", { userId: customerId, data: { twoFactorEnabled: false } }],
      [
        "POST",
        "/admin/update-user",
        { userId: customerId, data: { email: "thief@example.com", emailVerified: true } },
      ],
      ["POST", "/admin/set-user-password", { userId: customerId, newPassword: "stolen-pass-1" }],
      ["POST", "/admin/remove-user", { userId: customerId }],
      ["POST", "/admin/set-role", { userId: customerId, role: "admin" }],
      ["POST", "/admin/impersonate-user", { userId: customerId }],
      ["GET", "/admin/list-users", undefined],
    ];
    for (const [method, path, body] of attempts) {
      const response = await call(method, path, body);
      expect(response.status, path).toBe(404);
    }
    // The customer still signs in with their own password at their own address.
    const own = await authPost(server, "/sign-in/email", {
      email: "customer@example.com",
      password: PASSWORD,
    });
    expect(own.status).toBe(200);
    const thief = await authPost(server, "/sign-in/email", {
      email: "thief@example.com",
      password: "stolen-pass-1",
    });
    expect(thief.status).toBe(401);
  });

  it("keeps what the pages and the app call working", async () => {
    const session = await call("GET", "/get-session");
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(
      "ravi@example.com",
    );
    expect((await call("GET", "/ok")).status).toBe(200);
    const reset = await authPost(server, "/request-password-reset", {
      email: "customer@example.com",
      redirectTo: "/auth?view=reset",
    });
    expect(reset.status).toBe(200);
  });
});
