import { describe, expect, it } from "vitest";
import { formatInr, rupeesDecimal } from "./money";

describe("formatInr", () => {
  it.each([
    [0, "₹0"],
    [69_900, "₹699"],
    [6_99_900, "₹6,999"],
    [1_00_00_000, "₹1,00,000"],
    [12_34_56_789, "₹12,34,567.89"],
    [50, "₹0.50"],
  ])("%i paise → %s", (paise, text) => {
    expect(formatInr(paise)).toBe(text);
  });

  it("refuses fractions of a paisa", () => {
    expect(() => formatInr(10.5)).toThrow();
  });

  it("gives a decimal string for machines", () => {
    expect(rupeesDecimal(6_99_900)).toBe("6999.00");
  });
});
