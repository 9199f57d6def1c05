import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { decideSellingAbroad } from "./selling-abroad.server";

// 7 Dec 2026 falls in India's financial year 2026-27; 1 Apr 2027 00:30 in India starts 2027-28.
const DECEMBER = new Date("2026-12-07T06:00:00Z");
const NEW_YEAR_IN_INDIA = new Date("2027-03-31T19:00:00Z");
const LUT = { lutArn: "AD2904260012345", lutFinancialYear: "2026-27" };

describe("selling abroad (issue 56): only under a Letter of Undertaking for the year", () => {
  it("is open in the configured currencies with this year's LUT", () => {
    expect(decideSellingAbroad({ currencies: ["USD", "EUR"], ...LUT }, DECEMBER)).toEqual({
      open: true,
      currencies: ["USD", "EUR"],
      lut: { arn: "AD2904260012345", financialYear: "2026-27" },
    });
  });

  it("is off without a LUT, and says what to file and set", () => {
    const verdict = decideSellingAbroad({ currencies: ["USD"] }, DECEMBER);
    expect(verdict).toMatchObject({ open: false, why: "no-lut" });
    expect(verdict.open || verdict.words).toContain("GST_LUT_FINANCIAL_YEAR=2026-27");
  });

  it("closes when India's financial year turns, until next year's LUT is set", () => {
    const verdict = decideSellingAbroad({ currencies: ["USD"], ...LUT }, NEW_YEAR_IN_INDIA);
    expect(verdict).toMatchObject({ open: false, why: "lut-of-another-year" });
    expect(verdict.open || verdict.words).toContain("2027-28");
  });

  it("is off when no currency is named", () => {
    expect(decideSellingAbroad({ currencies: [], ...LUT }, DECEMBER)).toMatchObject({
      open: false,
      why: "no-currencies",
    });
  });
});

describe("the settings, checked at start", () => {
  const base = { NODE_ENV: "test" };
  it("reads the currencies, USD by default, none when empty", () => {
    expect(parseEnv(base).SELL_ABROAD_CURRENCIES).toEqual(["USD"]);
    expect(
      parseEnv({ ...base, SELL_ABROAD_CURRENCIES: " usd, EUR ,USD" }).SELL_ABROAD_CURRENCIES,
    ).toEqual(["USD", "EUR"]);
    expect(parseEnv({ ...base, SELL_ABROAD_CURRENCIES: "" }).SELL_ABROAD_CURRENCIES).toEqual([]);
  });

  it.each([
    [{ SELL_ABROAD_CURRENCIES: "USD,GBP" }, "SELL_ABROAD_CURRENCIES: must list USD or EUR"],
    [{ GST_LUT_ARN: "AD2904260012345" }, "GST_LUT_ARN, GST_LUT_FINANCIAL_YEAR: set both"],
    [{ GST_LUT_FINANCIAL_YEAR: "2026-27" }, "GST_LUT_ARN, GST_LUT_FINANCIAL_YEAR: set both"],
    [
      { GST_LUT_ARN: "AD29", GST_LUT_FINANCIAL_YEAR: "2026-27" },
      "GST_LUT_ARN: must be the 15-character ARN",
    ],
    [
      { GST_LUT_ARN: "AD2904260012345", GST_LUT_FINANCIAL_YEAR: "2026-28" },
      "GST_LUT_FINANCIAL_YEAR: must be two consecutive years",
    ],
  ])("refuses %o with words", (values, words) => {
    expect(() => parseEnv({ ...base, ...values })).toThrow(words);
  });

  it("keeps a LUT given in lower case as the portal writes it", () => {
    const config = parseEnv({
      ...base,
      GST_LUT_ARN: "ad2904260012345",
      GST_LUT_FINANCIAL_YEAR: "2026-27",
    });
    expect(config.GST_LUT_ARN).toBe("AD2904260012345");
  });
});
