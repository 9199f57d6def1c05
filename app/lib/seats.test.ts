import { describe, expect, it } from "vitest";
import { site } from "~/config/site";
import { seatPricePaise, seatQuote, seatTopup, teamMonthlyPaise, upiLimitText } from "./seats";

const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 6, 30));

describe("seat prices", () => {
  it("prices every seat at the tier its number reaches", () => {
    const [first, second] = site.teams.seatPrices.monthly;
    expect(seatPricePaise("monthly", 1)).toBe(first!.pricePaise);
    expect(seatPricePaise("monthly", second!.fromSeats - 1)).toBe(first!.pricePaise);
    expect(seatPricePaise("monthly", second!.fromSeats)).toBe(second!.pricePaise);
    expect(seatQuote("monthly", 10)).toMatchObject({
      seatPricePaise: second!.pricePaise,
      totalPaise: 10 * second!.pricePaise,
    });
  });

  it("says a cycle above UPI AutoPay's limit is paid by card, and only then", () => {
    expect(seatQuote("monthly", 3).overUpiLimit).toBe(false);
    expect(seatQuote("yearly", 3)).toMatchObject({ totalPaise: 20_99_700, overUpiLimit: true });
    expect(upiLimitText(20_99_700, "yearly")).toMatch(
      /^₹20,997 a year is more than UPI AutoPay can debit at once \(₹15,000\), so pay by debit or credit card\./,
    );
  });

  it("charges seats added mid-cycle for the days left, today counted, at least ₹1", () => {
    const cycle = { start: day(0), end: day(30) };
    // Just bought: the whole period.
    expect(seatTopup(69_900, 2, cycle, day(0))).toEqual({
      seatsAdded: 2,
      daysLeft: 30,
      cycleDays: 30,
      amountPaise: 139_800,
    });
    // 17 and a half days left: 18 days counted.
    expect(seatTopup(69_900, 2, cycle, new Date(day(12).getTime() + 12 * 3_600_000))).toEqual({
      seatsAdded: 2,
      daysLeft: 18,
      cycleDays: 30,
      amountPaise: 83_880,
    });
    expect(seatTopup(1, 1, cycle, day(29)).amountPaise).toBe(100);
  });

  it("counts a team's yearly seats at a twelfth of their price a month", () => {
    expect(teamMonthlyPaise("monthly", 69_900, 3)).toBe(209_700);
    expect(teamMonthlyPaise("yearly", 6_99_900, 3)).toBe(174_975);
  });
});
