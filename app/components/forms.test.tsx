// @vitest-environment happy-dom
// The form-level message in a DOM (decision 0040): an answer to a submit that appears outside the
// window is scrolled into view; one that came with the page is left where it is.
import { vi } from "vitest";

// Testing Library needs React's development build (see app/routes/billing/billing.test.tsx).
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

import { cleanup, render, screen } from "@testing-library/react";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { act } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FormMessage } from "./forms";

/** Every element sits this far down the page: below a window of happy-dom's default height. */
let top = 0;
const scrolled: string[] = [];

beforeEach(() => {
  top = 5_000;
  scrolled.length = 0;
  HTMLElement.prototype.getBoundingClientRect = function () {
    return { top, bottom: top + 40, left: 0, right: 100, width: 100, height: 40 } as DOMRect;
  };
  HTMLElement.prototype.scrollIntoView = function () {
    scrolled.push(this.textContent ?? "");
  };
});
afterEach(cleanup);

describe("FormMessage", () => {
  it("scrolls the answer to a submit into view when it appears below the window", () => {
    const { rerender } = render(<FormMessage message={null} tone="success" />);
    expect(scrolled).toEqual([]);
    rerender(<FormMessage message="Refunded ₹699." tone="success" />);
    expect(screen.getByRole("status").textContent).toBe("Refunded ₹699.");
    expect(scrolled).toEqual(["Refunded ₹699."]);
    // A new answer scrolls again; the same one re-rendered does not.
    rerender(<FormMessage message="Refunded ₹699." tone="success" />);
    rerender(<FormMessage message="The refund was not made." tone="error" />);
    expect(scrolled).toEqual(["Refunded ₹699.", "The refund was not made."]);
  });

  it("leaves a message in view, and one that came with the page, where they are", async () => {
    top = 100;
    const { rerender } = render(<FormMessage message={null} tone="success" />);
    rerender(<FormMessage message="Saved." tone="success" />);
    expect(scrolled).toEqual([]);

    top = 5_000;
    // Hydrated by hand, so not Testing Library's to clean up: removed here, or the next test
    // file this worker runs (workers are not isolated) finds a second "Saved." status in the page.
    const container = document.createElement("div");
    container.innerHTML = renderToString(<FormMessage message="Saved." tone="success" />);
    document.body.append(container);
    let root: ReturnType<typeof hydrateRoot> | undefined;
    try {
      await act(async () => {
        root = hydrateRoot(container, <FormMessage message="Saved." tone="success" />);
      });
      expect(container.textContent).toBe("Saved.");
      expect(scrolled).toEqual([]);
    } finally {
      await act(async () => root?.unmount());
      container.remove();
    }
  });
});
