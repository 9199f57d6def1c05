// @vitest-environment happy-dom
// The feedback page in a DOM (decision 0040): its copy, field errors and thank-you state, with a
// stubbed loader and action that answer what the real ones answer. No server, no database.
import { vi } from "vitest";

// Testing Library renders through React's `act`, which only React's development build has; the
// suite sets NODE_ENV=production for every file (vitest.config.ts). Each test file runs in a
// worker of its own, so switching here, before React is first imported, changes only this file.
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, data, redirect } from "react-router";
import { description } from "../../tests/support/dom";
import { afterEach, describe, expect, it } from "vitest";
import type { FormResult } from "~/.server/forms/action.server";
import { fieldErrors } from "~/lib/auth-forms";
import { FEEDBACK_CATEGORIES, FEEDBACK_CATEGORY_LABELS, feedbackSchema } from "~/lib/feedback";
import FeedbackPage, { type loader } from "./feedback";

afterEach(cleanup);

type LoaderData = Awaited<ReturnType<typeof loader>>;
const FIELDS = ["email", "category", "message", "rating", "appVersion", "os"] as const;

/**
 * What the action answers a form its schema refuses (formAction with `echo`): a 400 with every
 * field's errors and what was typed. A valid form is stored and redirected to the thank-you state.
 */
async function feedbackAction({ request }: { request: Request }) {
  const form = await request.formData();
  const values = Object.fromEntries(FIELDS.map((name) => [name, String(form.get(name) ?? "")]));
  const parsed = feedbackSchema.safeParse(values);
  if (parsed.success) return redirect("/feedback?sent=1");
  return data<FormResult>(
    {
      intent: "form",
      ok: false,
      message: "Check the highlighted fields.",
      errors: fieldErrors(parsed.error),
      values,
    },
    { status: 400 },
  );
}

function renderPage(
  url = "/feedback",
  options: {
    loaderData?: Partial<LoaderData>;
    action?: (args: { request: Request }) => unknown;
    actionData?: FormResult;
  } = {},
) {
  const loaderData: LoaderData = { email: "", latestVersion: "1.4.0", ...options.loaderData };
  const Stub = createRoutesStub([
    {
      id: "feedback",
      path: "/feedback",
      Component: FeedbackPage,
      HydrateFallback: () => null,
      loader: () => loaderData,
      action: options.action ?? feedbackAction,
    },
  ]);
  // With actionData: the page as the server draws it again after a post without JavaScript.
  const hydrationData = options.actionData
    ? { loaderData: { feedback: loaderData }, actionData: { feedback: options.actionData } }
    : undefined;
  render(<Stub initialEntries={[url]} hydrationData={hydrationData} />);
  return screen.findByRole("heading", { level: 1, name: "Feedback" });
}

describe("/feedback", () => {
  it("labels every field and prefills what the loader knows", async () => {
    await renderPage("/feedback", { loaderData: { email: "meera@example.com" } });
    screen.getByText(
      "Found a bug, missing a board, or have an idea? The people who build Pinout read every message.",
    );
    expect(screen.getByRole("textbox", { name: "Your email" })).toHaveProperty(
      "value",
      "meera@example.com",
    );
    const category = screen.getByRole("combobox", { name: "What is it about?" });
    expect(
      within(category)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["Choose one", ...FEEDBACK_CATEGORIES.map((name) => FEEDBACK_CATEGORY_LABELS[name])]);
    const message = screen.getByRole("textbox", { name: "Message" });
    expect(description(message)).toBe(
      "10 to 5000 characters. For a bug, say what you did, what happened and what you expected.",
    );
    const rating = screen.getByRole("group", { name: "How do you rate Pinout? (optional)" });
    expect(
      within(rating)
        .getAllByRole("radio")
        .map((radio) => radio.closest("label")?.textContent),
    ).toEqual(["1Poor", "2Fair", "3Good", "4Very good", "5Excellent"]);
    expect(screen.getByRole("textbox", { name: "App version (optional)" })).toHaveProperty(
      "placeholder",
      "1.4.0",
    );
    screen.getByRole("textbox", { name: "Operating system (optional)" });
    screen.getByRole("button", { name: "Send feedback" });
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("points at each wrong field before sending anything", async () => {
    const user = userEvent.setup({ delay: null });
    let posts = 0;
    await renderPage("/feedback", {
      action: () => {
        posts += 1;
        return null;
      },
    });
    await user.type(screen.getByRole("textbox", { name: "Message" }), "too short");
    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    const email = screen.getByRole("textbox", { name: "Your email" });
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(description(email)).toBe("Enter an email address like name@example.com.");
    const category = screen.getByRole("combobox", { name: "What is it about?" });
    expect(category.getAttribute("aria-invalid")).toBe("true");
    expect(description(category)).toBe("Choose what your message is about.");
    const message = screen.getByRole("textbox", { name: "Message" });
    expect(message.getAttribute("aria-invalid")).toBe("true");
    // The hint stays, followed by the error.
    expect(description(message)).toBe(
      "10 to 5000 characters. For a bug, say what you did, what happened and what you expected. Write at least 10 characters.",
    );
    expect(
      screen.getByRole("textbox", { name: "App version (optional)" }).getAttribute("aria-invalid"),
    ).toBeNull();
    expect(posts).toBe(0);
  });

  it("clears a field's error as soon as the field is edited, and checks again on the next send", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage("/feedback", { action: () => null });
    await user.type(screen.getByRole("textbox", { name: "Message" }), "too short");
    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    const email = screen.getByRole("textbox", { name: "Your email" });
    const category = screen.getByRole("combobox", { name: "What is it about?" });
    const message = screen.getByRole("textbox", { name: "Message" });
    for (const field of [email, category, message])
      expect(field.getAttribute("aria-invalid")).toBe("true");

    // Issue 34: the errors were about what was sent; editing a field takes its error away.
    await user.type(email, "meera@example.com");
    expect(email.getAttribute("aria-invalid")).toBeNull();
    expect(description(email)).toBe("");
    await user.selectOptions(category, "bug");
    expect(category.getAttribute("aria-invalid")).toBeNull();
    expect(description(category)).toBe("");
    // The field not yet touched keeps its error.
    expect(message.getAttribute("aria-invalid")).toBe("true");
    await user.type(message, "!");
    expect(message.getAttribute("aria-invalid")).toBeNull();

    // Sending again checks again: a message still too short is pointed at once more.
    await user.clear(message);
    await user.type(message, "short");
    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    expect(message.getAttribute("aria-invalid")).toBe("true");
    expect(email.getAttribute("aria-invalid")).toBeNull();
  });

  it("shows the action's field errors beside their fields and keeps what was typed", async () => {
    const typed = {
      email: "meera@example",
      category: "bug",
      message: "Flashing stops at 40 %",
      rating: "4",
      appVersion: "1.4.0",
      os: "",
    };
    // A post without JavaScript skips the browser's check: the action's own answer is drawn.
    const answer = await feedbackAction({ request: post(typed) });
    if (answer instanceof Response) throw new Error("the form should have been refused");
    await renderPage("/feedback", { actionData: answer.data });
    const email = screen.getByRole("textbox", { name: "Your email" });
    expect(email).toHaveProperty("value", "meera@example");
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(description(email)).toBe("Enter an email address like name@example.com.");
    expect(screen.getByRole("combobox", { name: "What is it about?" })).toHaveProperty(
      "value",
      "bug",
    );
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveProperty(
      "value",
      "Flashing stops at 40 %",
    );
    expect(screen.getByRole("radio", { name: "4 Very good" })).toHaveProperty("checked", true);
    // Field errors stand beside their fields: no second, form-level message.
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows a refusal that belongs to no field above the form", async () => {
    const user = userEvent.setup({ delay: null });
    const message =
      "You have sent several messages in the last hour. Please wait 12 minutes, or write to support@pinout.dev.";
    await renderPage("/feedback", {
      action: async ({ request }) =>
        data<FormResult>(
          {
            intent: "form",
            ok: false,
            message,
            values: Object.fromEntries(await request.formData()) as Record<string, string>,
          },
          { status: 429 },
        ),
    });
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    expect((await screen.findByRole("alert")).textContent).toBe(message);
    expect(screen.getByRole("textbox", { name: "Message" })).toHaveProperty(
      "value",
      "The I2C scanner misses devices at 400 kHz.",
    );
  });

  it("thanks the sender once the message is stored", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await fillIn(user);
    await user.click(screen.getByRole("button", { name: "Send feedback" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Thank you: your message has reached the team. If you asked a question, we reply by email.",
    );
    expect(screen.getByRole("link", { name: "Send another message" }).getAttribute("href")).toBe(
      "/feedback",
    );
    expect(screen.queryByRole("button", { name: "Send feedback" })).toBeNull();
  });
});

function post(values: Record<string, string>): Request {
  return new Request("http://localhost/feedback", {
    method: "POST",
    body: new URLSearchParams(values),
  });
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  // By label (role queries with a name are slow); pasted in one go rather than typed key by key.
  await user.click(screen.getByLabelText("Your email"));
  await user.paste("meera@example.com");
  await user.selectOptions(screen.getByLabelText("What is it about?"), "bug");
  await user.click(screen.getByLabelText("Message"));
  await user.paste("The I2C scanner misses devices at 400 kHz.");
}
