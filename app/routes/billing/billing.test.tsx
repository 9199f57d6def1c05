// @vitest-environment happy-dom
// The billing page in a DOM (decision 0040): the payment-method card and the billing details
// form, its GSTIN hint, field errors and saved confirmation. The loader is stubbed with what the
// real one returns; the action is the real one, which checks the form before anything else, with
// only the database write replaced.
import { vi } from "vitest";

// Testing Library renders through React's `act`, which only React's development build has; the
// suite sets NODE_ENV=production for every file (vitest.config.ts). Each test file runs in a
// worker of its own, so switching here, before React is first imported, changes only this file.
vi.hoisted(() => {
  process.env.NODE_ENV = "development";
});

vi.mock(import("~/.server/billing/billing-profile.server"), async (original) => ({
  ...(await original()),
  saveBillingProfile: vi.fn(async () => {}),
}));

import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRoutesStub, RouterContextProvider } from "react-router";
import { description } from "../../../tests/support/dom";
import { afterEach, describe, expect, it } from "vitest";
import { type Session, sessionContext } from "~/.server/auth/session";
import { saveBillingProfile } from "~/.server/billing/billing-profile.server";
import type { SubscriptionSummary } from "~/.server/billing/overview.server";
import { billingDefaults } from "~/components/billing/BillingDetailsFields";
import { abroadDefaults } from "~/components/billing/AbroadDetailsFields";
import { BILLING_STATES, stateByCode } from "~/lib/gst";
import BillingPage, { action, type loader } from "./billing";

afterEach(() => {
  cleanup();
  vi.mocked(saveBillingProfile).mockClear();
});

type LoaderData = Awaited<ReturnType<typeof loader>>;

const session: Session = {
  id: "session-1",
  user: {
    id: "user-1",
    email: "meera@example.com",
    name: "Meera Iyer",
    role: "user",
    emailVerified: true,
  },
};

/** A Pro subscription as billingOverview() summarises it. */
const proMonthly: SubscriptionSummary = {
  providerSubscriptionId: "sub_P1",
  planId: "pro-monthly",
  plan: "Pro (monthly)",
  status: "active",
  state: "active",
  statusText: "Active",
  currentEnd: "2027-03-12T00:00:00.000Z",
  nextChargeAt: "2027-03-12T00:00:00.000Z",
  nextCharge: { amount: 69_900, currency: "INR" },
  coupon: null,
  paymentMethod: "UPI meera@okaxis",
  cancelAtCycleEnd: false,
  manageUrl: "https://rzp.io/i/manage-P1",
  activating: false,
  pausedAt: null,
  resumeAt: null,
  pausedInUpiApp: false,
};

/** What the real loader returns: no billing profile yet, so the defaults hold the user's name. */
function loaderData(
  options: {
    profile?: Parameters<typeof billingDefaults>[0];
    sub?: SubscriptionSummary;
    abroad?: boolean;
  } = {},
): LoaderData {
  const profile = options.profile ?? null;
  return {
    appReturn: null,
    abroad: options.abroad ?? false,
    abroadDefaults: abroadDefaults(null, session.user.name),
    defaults: billingDefaults(profile, session.user.name),
    saved: profile !== null,
    stateName: profile?.stateCode ? (stateByCode(profile.stateCode)?.name ?? null) : null,
    overview: { subscription: options.sub ?? null, switchTo: null, banner: null },
    testMode: true,
  };
}

function renderPage(data: LoaderData = loaderData(), refused?: unknown) {
  const context = new RouterContextProvider();
  context.set(sessionContext, session);
  const Stub = createRoutesStub(
    [
      {
        id: "billing",
        path: "/billing",
        Component: BillingPage,
        HydrateFallback: () => null,
        loader: () => data,
        action,
      },
    ],
    context,
  );
  // With `refused`: the page as the server draws it again after a post without JavaScript.
  const hydrationData = refused
    ? { loaderData: { billing: data }, actionData: { billing: refused } }
    : undefined;
  render(<Stub initialEntries={["/billing"]} hydrationData={hydrationData} />);
  return screen.findByRole("heading", { level: 1, name: "Billing" });
}

/** What the real action answers a post it refuses, as the page gets it back. */
async function refusalOf(values: Record<string, string>): Promise<unknown> {
  const context = new RouterContextProvider();
  context.set(sessionContext, session);
  const answer = await action({
    request: new Request("http://localhost/billing", {
      method: "POST",
      body: new URLSearchParams({ intent: "save-details", ...values }),
    }),
    context,
    params: {},
  } as unknown as Parameters<typeof action>[0]);
  if (answer instanceof Response) throw new Error(`the action answered ${answer.status}`);
  return (answer as { data: unknown }).data;
}

const form = () => within(screen.getByRole("form", { name: "Billing details" }));
// By label, not by role: a role query with a name walks the whole page each time (slow), and the
// label is what is being checked.
const field = (label: string) => form().getByLabelText(label, { selector: "input" });
const stateSelect = () => form().getByLabelText("State or union territory", { selector: "select" });

async function fillIn(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    if (name === "State or union territory") await user.selectOptions(stateSelect(), value);
    else if (name === "Country")
      await user.selectOptions(form().getByLabelText("Country", { selector: "select" }), value);
    else {
      // Pasted in one go: typing key by key costs time and shows nothing more here.
      await user.click(field(name));
      await user.paste(value);
    }
  }
}

describe("/billing", () => {
  it("lays out the billing details form with its hint and button", async () => {
    await renderPage();
    screen.getByText("Payment method and the details on your tax invoices.");
    form().getByText("For your GST tax invoice. Add a GSTIN to claim input tax credit.");
    expect(field("Name or company name")).toHaveProperty("value", "Meera Iyer");
    for (const name of ["Address", "City", "PIN code"]) {
      expect(field(name)).toHaveProperty("value", "");
      expect(field(name).hasAttribute("required")).toBe(true);
    }
    expect(field("Address line 2 (optional)").hasAttribute("required")).toBe(false);
    expect(field("PIN code").getAttribute("inputmode")).toBe("numeric");
    const states = within(stateSelect()).getAllByRole("option");
    expect(states.map((option) => option.textContent)).toEqual([
      "Choose…",
      ...BILLING_STATES.map((state) => state.name),
    ]);
    const gstin = field("GSTIN (optional)");
    expect(gstin.getAttribute("aria-invalid")).toBeNull();
    expect(description(gstin)).toBe("15 characters, e.g. 29ABCDE1234F1ZW");
    form().getByRole("button", { name: "Save billing details" });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("says there is no subscription yet, or shows its payment method and where to change it", async () => {
    await renderPage();
    const method = within(screen.getByRole("region", { name: "Payment method" }));
    method.getByText(/No subscription yet\./);
    expect(method.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/pricing");
    expect(method.getByRole("link", { name: "Invoices" }).getAttribute("href")).toBe("/invoices");
    expect(screen.queryByText("Test mode")).toBeNull();
    cleanup();

    await renderPage(loaderData({ sub: proMonthly }));
    const card = within(screen.getByRole("region", { name: "Payment method" }));
    expect(screen.getByTestId("payment-method").textContent).toBe("UPI meera@okaxis");
    // A new mandate through checkout (issue 59, point 3), not Razorpay's page for this one.
    expect(card.getByRole("link", { name: "Change payment method" }).getAttribute("href")).toBe(
      "/checkout?plan=pro-monthly&switch=1&change=method",
    );
    screen.getByText("Test mode");
    cleanup();

    await renderPage(loaderData({ sub: { ...proMonthly, paymentMethod: null } }));
    expect(screen.getByTestId("payment-method").textContent).toBe(
      "Not known yet: it appears once Razorpay confirms the first payment.",
    );
  });

  it("fills the form with the saved details", async () => {
    await renderPage(
      loaderData({
        profile: {
          name: "Pinout Labs Private Limited",
          addressLine1: "3rd Floor, 42 Residency Road",
          addressLine2: "",
          city: "Bengaluru",
          postalCode: "560025",
          stateCode: "29",
          gstin: "29AAPCP1234F1ZC",
        },
      }),
    );
    expect(field("Name or company name")).toHaveProperty("value", "Pinout Labs Private Limited");
    expect(field("PIN code")).toHaveProperty("value", "560025");
    expect(stateSelect()).toHaveProperty("value", "29");
    expect(field("GSTIN (optional)")).toHaveProperty("value", "29AAPCP1234F1ZC");
  });

  it("shows the action's errors beside a wrong PIN code and a GSTIN of another state", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await fillIn(user, {
      Address: "12 MG Road",
      City: "Pune",
      "PIN code": "41100",
      "State or union territory": "27",
      "GSTIN (optional)": "29AAPCP1234F1ZC",
    });
    await user.click(form().getByRole("button", { name: "Save billing details" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Check the highlighted fields.");
    const postalCode = field("PIN code");
    expect(postalCode.getAttribute("aria-invalid")).toBe("true");
    expect(description(postalCode)).toBe("Enter the 6-digit PIN code.");
    const gstin = field("GSTIN (optional)");
    expect(gstin.getAttribute("aria-invalid")).toBe("true");
    // The error takes the hint's place.
    expect(description(gstin)).toBe(
      "This GSTIN is registered in state 29, not Maharashtra: choose the state of the registration.",
    );
    expect(field("City").getAttribute("aria-invalid")).toBeNull();
    expect(stateSelect().getAttribute("aria-invalid")).toBeNull();
    expect(saveBillingProfile).not.toHaveBeenCalled();
  });

  it("keeps what was typed when a post without JavaScript is refused", async () => {
    const saved = loaderData({
      profile: {
        name: "Meera Iyer",
        addressLine1: "Old address",
        city: "Bengaluru",
        postalCode: "560001",
        stateCode: "29",
      },
    });
    const refused = await refusalOf({
      name: "Meera Iyer",
      addressLine1: "12 MG Road",
      addressLine2: "",
      city: "Pune",
      postalCode: "41100",
      stateCode: "27",
      gstin: "",
    });
    await renderPage(saved, refused);
    expect(field("Address")).toHaveProperty("value", "12 MG Road");
    expect(field("City")).toHaveProperty("value", "Pune");
    expect(field("PIN code")).toHaveProperty("value", "41100");
    expect(field("PIN code").getAttribute("aria-invalid")).toBe("true");
    expect(stateSelect()).toHaveProperty("value", "27");
    expect(saveBillingProfile).not.toHaveBeenCalled();
  });

  it("names every missing field, and a GSTIN with a typo", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await user.clear(field("Name or company name"));
    await fillIn(user, { "GSTIN (optional)": "29AAPCP1234F1ZD" });
    await user.click(form().getByRole("button", { name: "Save billing details" }));
    await screen.findByRole("alert");
    expect(description(field("Name or company name"))).toBe("Enter your name or company name.");
    expect(description(field("Address"))).toBe("Enter your address.");
    expect(description(field("City"))).toBe("Enter your city.");
    expect(description(field("PIN code"))).toBe("Enter the 6-digit PIN code.");
    expect(stateSelect().getAttribute("aria-invalid")).toBe("true");
    expect(description(stateSelect())).toBe("Choose your state or union territory.");
    expect(description(field("GSTIN (optional)"))).toBe(
      "The last character of that GSTIN does not match: check it for a typo.",
    );
  });

  it("confirms the saved details", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage();
    await fillIn(user, {
      Address: "3rd Floor, 42 Residency Road",
      City: "Bengaluru",
      "PIN code": "560025",
      "State or union territory": "29",
      "GSTIN (optional)": "29aapcp1234f1zc",
    });
    await user.click(form().getByRole("button", { name: "Save billing details" }));
    expect((await screen.findByRole("status")).textContent).toBe(
      "Saved. Invoices for future payments use these details; issued invoices stay as they are.",
    );
    expect(screen.queryByRole("alert")).toBeNull();
    expect(saveBillingProfile).toHaveBeenCalledWith("user-1", {
      name: "Meera Iyer",
      addressLine1: "3rd Floor, 42 Residency Road",
      addressLine2: "",
      city: "Bengaluru",
      postalCode: "560025",
      stateCode: "29",
      gstin: "29AAPCP1234F1ZC",
      countryCode: "IN",
      taxId: null,
    });
  });

  it("saves a billing address outside India: a country and a VAT id, no state or GSTIN", async () => {
    const user = userEvent.setup({ delay: null });
    await renderPage(loaderData({ abroad: true }));
    expect(form().queryByLabelText("State or union territory")).toBeNull();
    await fillIn(user, {
      Address: "Torstraße 1",
      City: "Berlin",
      "Postal code (if your country has one)": "10119",
      Country: "DE",
      "VAT or tax id (optional)": "de 123.456.789",
    });
    await user.click(form().getByRole("button", { name: "Save billing details" }));
    await screen.findByRole("status");
    expect(saveBillingProfile).toHaveBeenCalledWith("user-1", {
      name: "Meera Iyer",
      addressLine1: "Torstraße 1",
      addressLine2: "",
      city: "Berlin",
      postalCode: "10119",
      countryCode: "DE",
      stateCode: "96",
      gstin: null,
      taxId: "DE123456789",
    });
  });

  it("refuses India on the abroad form, and a country that does not exist", async () => {
    for (const [countryCode, words] of [
      ["IN", "A buyer in India pays in rupees with GST: choose Indian rupees on the pricing page."],
      ["XX", "Choose your country."],
    ] as const) {
      const refused = await refusalOf({
        name: "Meera Iyer",
        addressLine1: "Torstraße 1",
        city: "Berlin",
        countryCode,
      });
      expect(refused).toMatchObject({ ok: false, errors: { countryCode: [words] } });
    }
    expect(saveBillingProfile).not.toHaveBeenCalled();
  });
});
