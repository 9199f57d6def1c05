import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CURRENCIES,
  assertMinorUnits,
  decimalOf,
  formatInr,
  formatMoney,
  isCurrency,
  isForeignCurrency,
  rupeesDecimal,
} from "./money";

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

describe("formatMoney in each currency", () => {
  it.each([
    [9_00, "USD", "$9"],
    [89_00, "USD", "$89"],
    [1_234_567_89, "USD", "$1,234,567.89"],
    [8_50, "EUR", "€8.50"],
    [85_00, "EUR", "€85"],
    [-5, "EUR", "-€0.05"],
    [-69_900, "INR", "-₹699"],
  ] as const)("%i minor units of %s → %s", (amount, currency, text) => {
    expect(formatMoney(amount, currency)).toBe(text);
  });

  it("refuses anything but a whole number of minor units, in every currency", () => {
    for (const currency of CURRENCIES) {
      for (const amount of [0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
        expect(() => formatMoney(amount, currency)).toThrow(/whole number of minor units/);
      expect(() => assertMinorUnits(1.1, currency)).toThrow();
    }
  });

  it("writes every integer amount exactly: its decimal string is the amount again (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 50), max: 2 ** 50 }),
        fc.constantFrom(...CURRENCIES),
        (amount, currency) => {
          const decimal = decimalOf(amount, currency);
          expect(decimal).toMatch(/^-?\d+\.\d{2}$/);
          // Back to minor units with string arithmetic only: no float ever held the amount.
          const [major, minor] = decimal.replace("-", "").split(".") as [string, string];
          const back = BigInt(major) * 100n + BigInt(minor);
          expect(amount < 0 ? -back : back).toBe(BigInt(amount));
          // The words carry the same digits as the decimal (grouping and symbol aside).
          const digits = formatMoney(amount, currency).replace(/[^\d.]/g, "");
          const expected = minor === "00" ? major : `${major}.${minor}`;
          expect(digits).toBe(expected);
        },
      ),
    );
  });

  it("knows its currencies and which are foreign", () => {
    expect(CURRENCIES.filter(isCurrency)).toEqual(["INR", "USD", "EUR"]);
    expect(CURRENCIES.filter(isForeignCurrency)).toEqual(["USD", "EUR"]);
    expect(isCurrency("GBP")).toBe(false);
    expect(isForeignCurrency("INR")).toBe(false);
  });
});
