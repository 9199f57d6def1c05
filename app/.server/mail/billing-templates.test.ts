/**
 * The billing mails say what the site does (issue 54): an operator's "Cancel now" or a full
 * refund during a trial leaves Pro from the trial, so the mail says that, not "Free".
 */
import { describe, expect, it } from "vitest";
import { cancellationMessage } from "./billing-templates";

const to = { to: "ishaan@example.com", name: "Ishaan" };

describe("cancellationMessage, cancelled now by us", () => {
  const cancelledNow = (keeps: Parameters<typeof cancellationMessage>[0]["keeps"]) =>
    cancellationMessage({
      ...to,
      plan: "Pro (monthly)",
      endsAt: null,
      accountUrl: "https://pinout.example/account/subscription",
      endedNow: true,
      keeps,
    }).text.replace(/\s+/g, " ");

  it("says Free when nothing else gives Pro", () => {
    expect(cancelledNow(null)).toContain("your account is on Free from now");
  });

  it("says where Pro still comes from, and until when, when something does", () => {
    const words = cancelledNow({
      from: "your free trial",
      until: new Date("2027-01-15T06:30:00Z"),
    });
    expect(words).toContain(
      "Your account keeps Pro from your free trial until 15 Jan 2027, then moves to Free unless you choose a plan.",
    );
    expect(words).not.toContain("on Free from now");
  });
});
