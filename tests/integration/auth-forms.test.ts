/**
 * Issue 21, point 2: the sign-in page's forms are plain form posts that work without JavaScript,
 * and take the same path as the browser's client: Better Auth's HTTP endpoints, with their rate
 * limit and origin check, and their cookies passed on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookiesFrom, getWithCookies, postForm, signUpVerified } from "../support/auth";
import { textOf } from "../support/pages";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

const PASSWORD = "form-post-password-1";

describe("the sign-in page's form posts", () => {
  let server: RunningTestServer;

  beforeAll(async () => {
    // The proxy header is believed (from loopback), so each test signs in from its own address.
    server = await startServerOn(httpEngine(), {
      env: { AUTH_RATE_LIMIT: "4", TRUST_PROXY: "loopback" },
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signIn = (email: string, password: string, ip: string) =>
    postForm(
      server,
      "/auth?next=%2Faccount%2Fprofile",
      "",
      { intent: "sign-in", email, password },
      { "x-forwarded-for": ip },
    );

  it("signs in with a session cookie and a full page load of where it was going", async () => {
    await signUpVerified(server, {
      name: "Form Post",
      email: "form@example.com",
      password: PASSWORD,
    });
    const wrong = await signIn("form@example.com", "not-the-password", "198.51.100.1");
    expect(wrong.status).toBe(401);
    const page = textOf(await wrong.text());
    expect(page).toContain("The email or password is not right.");
    // The address typed is kept for the next try; the password never comes back.
    expect(page).not.toContain("not-the-password");

    const right = await signIn("form@example.com", PASSWORD, "198.51.100.1");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/account/profile");
    const cookie = cookiesFrom(right);
    expect(cookie).toMatch(/session_token=/);
    const account = await getWithCookies(server, "/account/profile", cookie);
    expect(account.status).toBe(200);
  });

  it("signs in when next is an encoded slash or backslash, and goes to the account instead (issue 32, point 15)", async () => {
    await signUpVerified(server, {
      name: "Encoded Next",
      email: "encoded-next@example.com",
      password: PASSWORD,
    });
    for (const [index, next] of ["/%5Cevil.example", "/%2F%2Fevil.example"].entries()) {
      const response = await postForm(
        server,
        `/auth?${new URLSearchParams({ next })}`,
        "",
        { intent: "sign-in", email: "encoded-next@example.com", password: PASSWORD },
        { "x-forwarded-for": `198.51.100.${30 + index}` },
      );
      expect(response.status, next).toBe(303);
      expect(response.headers.get("location")).toBe("/account");
      expect(cookiesFrom(response)).toMatch(/session_token=/);
    }
  });

  it("answers a form with the wrong fields with every field's error and a 400", async () => {
    const response = await postForm(server, "/auth?view=signup", "", {
      intent: "sign-up",
      name: "",
      email: "not-an-email",
      password: "short",
    });
    expect(response.status).toBe(400);
    const page = textOf(await response.text());
    expect(page).toContain("Enter your name.");
    expect(page).toContain("Enter an email address like name@example.com.");
    expect(page).toContain("Use at least 8 characters.");
  });

  it("keeps Better Auth's rate limit: the form is no way around it", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await signIn("nobody@example.com", "guess-number-" + i, "198.51.100.7")).status,
      );
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const limited = await signIn("nobody@example.com", "guess", "198.51.100.7");
    expect(textOf(await limited.text())).toContain(
      "Too many attempts. Wait a minute and try again.",
    );
  });

  it("refuses a post from another site", async () => {
    const response = await postForm(
      server,
      "/auth",
      "",
      { intent: "sign-in", email: "form@example.com", password: PASSWORD },
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie") ?? "").not.toMatch(/session_token=/);
  });
});
