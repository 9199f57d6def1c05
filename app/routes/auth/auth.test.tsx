// @vitest-environment happy-dom
// The sign-in page's views in a DOM (decision 0040): labels, buttons, links, field errors and
// form-level messages, with a stubbed loader and action that answer what the real ones answer.
// Nothing calls Better Auth: the action's answers that need it are built here in its shapes.
import { vi } from "vitest";

// Testing Library renders through React's `act`, which only React's development build has; the
// suite sets NODE_ENV=production for every file (vitest.config.ts). Each test file runs in a
// worker of its own, so switching here, before React is first imported, changes only this file.
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, data, RouterContextProvider } from "react-router";
import { description } from "../../../tests/support/dom";
import { afterEach, describe, expect, it } from "vitest";
import type { AuthFormResult } from "~/lib/auth-forms";
import { authFailureMessage, WEB_SESSION_TOKEN_INVALID } from "~/lib/auth-messages";
import { planById, planLabel, planPriceLabel } from "~/lib/plans";
import AuthPage, { action, type loader } from "./auth";

afterEach(cleanup);

type LoaderData = Awaited<ReturnType<typeof loader>>;
type StubAction = (args: { request: Request }) => unknown;

/** The form posts the stub action received, by intent. */
let posted: string[] = [];
afterEach(() => {
  posted = [];
});

/** The action's answer to a form post, in its shape (`answer()` in auth.tsx). */
function answering(result: AuthFormResult, status = 200): StubAction {
  return async ({ request }) => {
    posted.push(String((await request.formData()).get("intent")));
    return data(result, { status });
  };
}

function renderPage(
  url: string,
  options: { google?: boolean; action?: StubAction; actionData?: AuthFormResult } = {},
) {
  const loaderData: LoaderData = { google: options.google ?? false };
  const Stub = createRoutesStub([
    {
      id: "auth",
      path: "/auth",
      Component: AuthPage,
      HydrateFallback: () => null,
      loader: () => loaderData,
      action: options.action ?? answering({ intent: "form", ok: false, message: "unexpected" }),
    },
  ]);
  // With actionData: the page as the server draws it again after a post without JavaScript.
  const hydrationData = options.actionData
    ? { loaderData: { auth: loaderData }, actionData: { auth: options.actionData } }
    : undefined;
  render(<Stub initialEntries={[url]} hydrationData={hydrationData} />);
  return screen.findByRole("heading", { level: 1 });
}

/** What the real action answers a form it refuses before asking Better Auth anything. */
async function refusalOf(url: string, values: Record<string, string>): Promise<AuthFormResult> {
  const answer = await action({
    request: new Request(`http://localhost${url}`, {
      method: "POST",
      body: new URLSearchParams(values),
    }),
    context: new RouterContextProvider(),
    params: {},
  } as unknown as Parameters<typeof action>[0]);
  if (answer instanceof Response) throw new Error(`the action answered ${answer.status}`);
  return answer.data;
}

const href = (name: string) => screen.getByRole("link", { name }).getAttribute("href");

describe("the log-in view", () => {
  it("has its title, fields, links and button", async () => {
    expect((await renderPage("/auth")).textContent).toBe("Log in");
    screen.getByText("Welcome back to Pinout.");
    screen.getByRole("textbox", { name: "Email" });
    expect(screen.getByLabelText("Password").getAttribute("type")).toBe("password");
    expect(href("Forgot password?")).toBe("/auth?view=forgot");
    screen.getByRole("button", { name: "Log in" });
    screen.getByText(/New here\?/);
    expect(href("Create an account")).toBe("/auth?view=signup");
    expect(screen.queryByRole("button", { name: "Continue with Google" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("offers Google when it is set up, and says which plan a checkout link is for", async () => {
    const next = encodeURIComponent("/checkout?plan=pro-yearly");
    await renderPage(`/auth?next=${next}`, { google: true });
    screen.getByRole("button", { name: "Continue with Google" });
    const plan = planById("pro-yearly");
    screen.getByText(
      `Log in to continue to checkout for ${planLabel(plan)}, ${planPriceLabel(plan)} incl. GST.`,
    );
    expect(href("Create an account")).toBe(`/auth?view=signup&next=${next}`);
  });

  it("points at empty fields before sending anything", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage("/auth");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    const email = screen.getByRole("textbox", { name: "Email" });
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(description(email)).toBe("Enter an email address like name@example.com.");
    const password = screen.getByLabelText("Password");
    expect(password.getAttribute("aria-invalid")).toBe("true");
    expect(description(password)).toBe("Enter your password.");
    expect(posted).toEqual([]);
  });

  it("shows a refused sign-in above the form", async () => {
    const user = userEvent.setup({ delay: null });
    const message = authFailureMessage({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" });
    await renderPage("/auth", {
      action: answering(
        { intent: "sign-in", ok: false, message, values: { email: "meera@example.com" } },
        401,
      ),
    });
    await user.type(screen.getByRole("textbox", { name: "Email" }), "meera@example.com");
    await user.type(screen.getByLabelText("Password"), "not the password");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    expect((await screen.findByRole("alert")).textContent).toBe(message);
    expect(posted).toEqual(["sign-in"]);
    expect(screen.getByRole("textbox", { name: "Email" }).getAttribute("aria-invalid")).toBeNull();
  });

  it("asks for the second factor when the password was right", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage("/auth", {
      action: answering({ intent: "sign-in", ok: true, message: "", step: "totp" }),
    });
    await user.type(screen.getByRole("textbox", { name: "Email" }), "meera@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Log in" }));
    await screen.findByText(
      "Two-factor authentication is on. Enter the 6-digit code from your authenticator app.",
    );
    screen.getByRole("textbox", { name: "Authentication code" });
    screen.getByRole("button", { name: "Verify" });
    screen.getByRole("button", { name: "Use a backup code instead" });
  });

  it("explains a used link, an app link that expired, and a changed password", async () => {
    await renderPage("/auth?error=INVALID_TOKEN");
    expect(screen.getByRole("alert").textContent).toBe(
      "That link has expired or was already used. Ask for a new one below.",
    );
    cleanup();
    await renderPage("/auth?error=desktop_token");
    expect(screen.getByRole("alert").textContent).toBe(WEB_SESSION_TOKEN_INVALID);
    cleanup();
    await renderPage("/auth?reset=1");
    expect(screen.getByRole("status").textContent).toBe(
      "Your password was changed. Log in with the new one.",
    );
  });
});

describe("the sign-up view", () => {
  it("has its title, fields, terms and button", async () => {
    expect((await renderPage("/auth?view=signup")).textContent).toBe("Create your account");
    screen.getByText("Free forever on one device. No card needed.");
    screen.getByRole("textbox", { name: "Name" });
    screen.getByRole("textbox", { name: "Email" });
    const password = screen.getByLabelText("Password");
    expect(password.getAttribute("autocomplete")).toBe("new-password");
    expect(description(password)).toBe("At least 8 characters.");
    expect(href("Terms of Service")).toBe("/legal/terms");
    expect(href("Privacy Policy")).toBe("/legal/privacy");
    screen.getByRole("button", { name: "Create account" });
    screen.getByText(/Have an account\?/);
    expect(href("Log in")).toBe("/auth?view=login");
  });

  it("shows the action's field errors beside their fields, keeping name and email", async () => {
    // A post without JavaScript skips the browser's check: the action's own answer is drawn.
    const actionData = await refusalOf("/auth?view=signup", {
      intent: "sign-up",
      name: " ",
      email: "meera@example",
      password: "short",
    });
    await renderPage("/auth?view=signup", { actionData });
    const name = screen.getByRole("textbox", { name: "Name" });
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(description(name)).toBe("Enter your name.");
    const email = screen.getByRole("textbox", { name: "Email" });
    expect(email).toHaveProperty("value", "meera@example");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(description(email)).toBe("Enter an email address like name@example.com.");
    const password = screen.getByLabelText("Password");
    expect(password).toHaveProperty("value", "");
    expect(password.getAttribute("aria-invalid")).toBe("true");
    // The error takes the hint's place.
    expect(description(password)).toBe("Use at least 8 characters.");
    expect(screen.queryByText("At least 8 characters.")).toBeNull();
    // Each error stands beside its field: no form-level message as well.
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says where the confirmation link went", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage("/auth?view=signup", {
      action: answering({ intent: "sign-up", ok: true, message: "", sentTo: "meera@example.com" }),
    });
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Meera Iyer");
    await user.type(screen.getByRole("textbox", { name: "Email" }), "meera@example.com");
    await user.type(screen.getByLabelText("Password"), "correct horse");
    await user.click(screen.getByRole("button", { name: "Create account" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Almost done: we sent a confirmation link to meera@example.com. Open it to activate your account.",
    );
    expect(screen.queryByRole("button", { name: "Create account" })).toBeNull();
  });
});

describe("the forgot-password view", () => {
  it("has its title, field and button", async () => {
    expect((await renderPage("/auth?view=forgot")).textContent).toBe("Reset your password");
    screen.getByText("We will email you a link to choose a new one.");
    screen.getByRole("textbox", { name: "Email" });
    expect(screen.queryByLabelText("Password")).toBeNull();
    screen.getByRole("button", { name: "Email me a reset link" });
    expect(href("Log in")).toBe("/auth?view=login");
  });

  it("shows the action's field error, then where the link went", async () => {
    const actionData = await refusalOf("/auth?view=forgot", { intent: "forgot", email: "meera" });
    await renderPage("/auth?view=forgot", { actionData });
    const email = screen.getByRole("textbox", { name: "Email" });
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(description(email)).toBe("Enter an email address like name@example.com.");
    cleanup();

    const user = userEvent.setup({ delay: null });
    await renderPage("/auth?view=forgot", {
      action: answering({ intent: "forgot", ok: true, message: "", sentTo: "meera@example.com" }),
    });
    await user.type(screen.getByRole("textbox", { name: "Email" }), "meera@example.com");
    await user.click(screen.getByRole("button", { name: "Email me a reset link" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "If an account exists for meera@example.com, a reset link is on its way. It works for 1 hour.",
    );
  });
});
