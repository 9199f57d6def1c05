// @vitest-environment happy-dom
// A form's pending state in a DOM (decision 0040): a page with several forms to its own action,
// rows of forms with one intent, a fetcher form and a link, in react-router's route stub. The
// action and the next page's loader wait for the test to let them go, so each state is looked at
// while it lasts (the router's own navigation state is shown on the page to know it has begun).
import { vi } from "vitest";

// Testing Library needs React's development build (see app/routes/billing/billing.test.tsx).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  createRoutesStub,
  Form,
  Link,
  redirect,
  useFetcher,
  useNavigation,
  useSearchParams,
} from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { SubmitButton } from "./forms";
import { useFormPending, usePendingForms } from "./use-form-pending";

/** A promise the test settles: what the action and the next page's loader wait for. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}
let action = gate();
let nextPage = gate();

afterEach(() => {
  // Let whatever still waits finish before the page goes.
  action.open();
  nextPage.open();
  cleanup();
  action = gate();
  nextPage = gate();
});

function HiddenIntent({ value }: { value: string }) {
  return <input type="hidden" name="intent" value={value} />;
}

function Page() {
  const [params] = useSearchParams();
  const saving = useFormPending({ intent: "save" });
  const inviting = useFormPending({ intent: ["invite", "resend"] });
  const leaving = useFormPending({ intent: "leave" });
  const searching = useFormPending({ method: "get" });
  const elsewhere = useFormPending({ action: "/elsewhere", intent: "save" });
  const rows = usePendingForms();
  const fetcher = useFetcher();
  const pinging = useFormPending({ fetcher });
  return (
    <main>
      <p data-testid="navigation">{useNavigation().state}</p>
      <p>{`Searched: ${params.get("q") ?? ""}`}</p>
      <Link to="/next">The next page</Link>
      <Form method="post" aria-label="Details">
        <HiddenIntent value="save" />
        <SubmitButton pending={saving} label="Save" pendingLabel="Saving…" />
      </Form>
      <Form method="post" aria-label="Invite">
        <HiddenIntent value="invite" />
        <SubmitButton pending={inviting} label="Invite" pendingLabel="Sending…" />
      </Form>
      <Form method="post" aria-label="Leave">
        <HiddenIntent value="leave" />
        <SubmitButton pending={leaving} label="Leave" pendingLabel="Leaving…" />
      </Form>
      {["asha", "ravi"].map((id) => (
        <Form method="post" key={id} aria-label={`Seat of ${id}`}>
          <HiddenIntent value="give-seat" />
          <input type="hidden" name="memberId" value={id} />
          <SubmitButton
            pending={rows({ intent: "give-seat", fields: { memberId: id } })}
            label="Give a seat"
            pendingLabel="Giving…"
          />
        </Form>
      ))}
      <Form method="get" aria-label="Search">
        <input type="hidden" name="q" value="kaveri" />
        <SubmitButton pending={searching} label="Search" pendingLabel="Searching…" />
      </Form>
      <Form method="post" action="/elsewhere" aria-label="Elsewhere">
        <HiddenIntent value="save" />
        <SubmitButton pending={elsewhere} label="Save elsewhere" pendingLabel="Saving elsewhere…" />
      </Form>
      <fetcher.Form method="post" aria-label="Ping">
        <HiddenIntent value="ping" />
        <SubmitButton pending={pinging} label="Ping" pendingLabel="Pinging…" />
      </fetcher.Form>
    </main>
  );
}

/** Every button's words, in the page's order. */
const buttons = () => screen.getAllByRole("button").map((button) => button.textContent);
const IDLE = [
  "Save",
  "Invite",
  "Leave",
  "Give a seat",
  "Give a seat",
  "Search",
  "Save elsewhere",
  "Ping",
];
/** The idle words, with the one at `index` replaced. */
const idleBut = (index: number, words: string) => IDLE.map((w, i) => (i === index ? words : w));

function renderPage() {
  const Stub = createRoutesStub([
    {
      path: "/",
      Component: Page,
      HydrateFallback: () => null,
      // A search (the GET form) waits as the next page does.
      loader: async ({ request }) => {
        if (new URL(request.url).searchParams.has("q")) await nextPage.opened;
        return null;
      },
      action: async ({ request }) => {
        const intent = (await request.formData()).get("intent");
        await action.opened;
        return intent === "leave" ? redirect("/next") : { ok: true };
      },
    },
    {
      path: "/elsewhere",
      action: async () => {
        await action.opened;
        return redirect("/");
      },
    },
    {
      path: "/next",
      Component: () => <h1>The next page</h1>,
      loader: async () => {
        await nextPage.opened;
        return null;
      },
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
  return screen.findByRole("button", { name: "Save" });
}

const navigation = (state: string) =>
  screen.findByText(state, { selector: "[data-testid=navigation]" });

describe("useFormPending", () => {
  it("is pending while its own form is sent, and no other form is", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    expect(buttons()).toEqual(IDLE);
    await user.click(screen.getByRole("button", { name: "Save" }));
    await navigation("submitting");
    expect(buttons()).toEqual(idleBut(0, "Saving…"));
    expect(screen.getByRole("button", { name: "Saving…" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("button", { name: "Invite" })).toHaveProperty("disabled", false);
    action.open();
    await navigation("idle");
    expect(buttons()).toEqual(IDLE);
  });

  it("is not pending while a link is followed", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await user.click(screen.getByRole("link", { name: "The next page" }));
    await navigation("loading");
    expect(buttons()).toEqual(IDLE);
    nextPage.open();
    await screen.findByRole("heading", { name: "The next page" });
  });

  it("is not pending while another form of the page is sent", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await user.click(screen.getByRole("button", { name: "Invite" }));
    await navigation("submitting");
    expect(buttons()).toEqual(idleBut(1, "Sending…"));
  });

  it("tells rows of forms with one intent apart by their fields", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    const ravi = within(screen.getByRole("form", { name: "Seat of ravi" }));
    await user.click(ravi.getByRole("button", { name: "Give a seat" }));
    await navigation("submitting");
    expect(buttons()).toEqual(idleBut(4, "Giving…"));
  });

  it("stays pending while the page its action redirects to loads", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await user.click(screen.getByRole("button", { name: "Leave" }));
    await navigation("submitting");
    expect(buttons()).toEqual(idleBut(2, "Leaving…"));
    action.open();
    await navigation("loading");
    expect(buttons()).toEqual(idleBut(2, "Leaving…"));
    nextPage.open();
    await screen.findByRole("heading", { name: "The next page" });
  });

  it("tells a form posting elsewhere from this route's own, and a GET form from the posts", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await user.click(screen.getByRole("button", { name: "Save elsewhere" }));
    await navigation("submitting");
    expect(buttons()).toEqual(idleBut(6, "Saving elsewhere…"));
    action.open();
    await navigation("idle");
    expect(buttons()).toEqual(IDLE);

    // A GET form's submission loads this page again with its fields: only it is pending.
    await user.click(screen.getByRole("button", { name: "Search" }));
    await navigation("loading");
    expect(buttons()).toEqual(idleBut(5, "Searching…"));
    nextPage.open();
    await screen.findByText("Searched: kaveri");
    expect(buttons()).toEqual(IDLE);
  });

  it("follows a fetcher form's own fetcher, not the page's navigation", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await user.click(screen.getByRole("button", { name: "Ping" }));
    await screen.findByRole("button", { name: "Pinging…" });
    expect(screen.getByTestId("navigation").textContent).toBe("idle");
    expect(buttons()).toEqual(idleBut(7, "Pinging…"));
    action.open();
    await screen.findByRole("button", { name: "Ping" });
    expect(buttons()).toEqual(IDLE);
  });
});
