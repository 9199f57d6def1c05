// @vitest-environment happy-dom
// The cancellation step (issue 59, point 1; decision 0071): at most one offer, "Cancel my
// subscription" always there and styled as the offer's button, and the reason sent with either.
import { vi } from "vitest";

// React's `act` is in its development build only (see subscription.test.tsx).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { CANCEL_BUTTON, CANCEL_REASONS, type CancelOfferView } from "~/lib/cancel-flow";
import { CancelFlowForm } from "./CancelFlowForm";

afterEach(cleanup);

const PAUSE: CancelOfferView = {
  kind: "pause",
  title: "Or pause for 2 months",
  text: "You keep Pro until 12 Mar 2027, then nothing is charged for 2 months.",
  button: "Pause for 2 months",
};

function renderStep(offer: CancelOfferView | null, posted: FormData[] = []) {
  const Stub = createRoutesStub([
    {
      path: "/account/subscription/cancel",
      Component: () => (
        <CancelFlowForm
          title="Cancel Pro (monthly)"
          consequences="You keep Pro until the end of the period you paid for."
          offer={offer}
          backTo="/account/subscription"
        />
      ),
      action: async ({ request }) => {
        posted.push(await request.formData());
        return null;
      },
    },
  ]);
  render(<Stub initialEntries={["/account/subscription/cancel"]} />);
  return screen.findByRole("button", { name: CANCEL_BUTTON });
}

describe("the cancellation step", () => {
  it("shows one offer beside the cancel button, in the same style", async () => {
    const cancel = await renderStep(PAUSE);
    expect(screen.getAllByTestId("cancel-offer")).toHaveLength(1);
    const take = screen.getByRole("button", { name: "Pause for 2 months" });
    expect(cancel.className).toBe(take.className);
    expect(cancel.hidden).toBe(false);
    expect(cancel.parentElement).toBe(take.parentElement);
    // Nothing before the two buttons asks for a press: the reason is optional.
    const reason = screen.getByRole("combobox", { name: "Why are you leaving? (optional)" });
    expect((reason as HTMLSelectElement).value).toBe("");
    expect(
      [...(reason as HTMLSelectElement).options].map((option) => option.value).slice(1),
    ).toEqual([...CANCEL_REASONS]);
  });

  it("without an offer, cancelling is the one button", async () => {
    await renderStep(null);
    expect(screen.queryByTestId("cancel-offer")).toBeNull();
    expect(screen.getAllByRole("button").map((button) => button.textContent)).toEqual([
      CANCEL_BUTTON,
    ]);
  });

  it("sends the reason with the button pressed", async () => {
    const user = userEvent.setup({ delay: null });
    const posted: FormData[] = [];
    const cancel = await renderStep(PAUSE, posted);
    await user.selectOptions(
      screen.getByRole("combobox", { name: "Why are you leaving? (optional)" }),
      "too-expensive",
    );
    await user.click(screen.getByText("Add a comment (optional)"));
    await user.type(screen.getByRole("textbox", { name: "Anything else? (optional)" }), "Costs");
    await user.click(cancel);
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(Object.fromEntries(posted[0]!)).toEqual({
      reason: "too-expensive",
      details: "Costs",
      intent: "cancel",
    });
  });
});
