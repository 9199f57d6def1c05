/**
 * Whether the site sells abroad now, decided once (issue 56, decision 0060). A sale to a buyer
 * outside India is an export of services, zero-rated under a Letter of Undertaking filed for the
 * financial year (IGST Act s. 16; Form GST RFD-11): without one for the year of the sale, the
 * export invoice could not carry its endorsement, so no foreign currency is offered at all. The
 * pricing page, checkout and /admin ask this, and nothing else reads the LUT's settings.
 */
import type { ForeignCurrency } from "~/lib/money";
import { env } from "../env";
import { financialYear } from "../invoices/engine.server";

export interface LetterOfUndertaking {
  arn: string;
  /** "2026-27". */
  financialYear: string;
}

export type SellingAbroad =
  | { open: true; currencies: readonly ForeignCurrency[]; lut: LetterOfUndertaking }
  | { open: false; why: "no-currencies" | "no-lut" | "lut-of-another-year"; words: string };

export interface SellingAbroadSettings {
  currencies: readonly ForeignCurrency[];
  lutArn?: string | undefined;
  lutFinancialYear?: string | undefined;
}

/** The rule itself, over settings and a moment (the tests' way in). */
export function decideSellingAbroad(settings: SellingAbroadSettings, now: Date): SellingAbroad {
  if (settings.currencies.length === 0)
    return {
      open: false,
      why: "no-currencies",
      words: "Selling abroad is off: SELL_ABROAD_CURRENCIES names no currency.",
    };
  const year = financialYear(now).label;
  if (!settings.lutArn || !settings.lutFinancialYear)
    return {
      open: false,
      why: "no-lut",
      words: `Selling abroad is off: no Letter of Undertaking is configured for ${year}. File one (Form GST RFD-11) on the GST portal, then set GST_LUT_ARN and GST_LUT_FINANCIAL_YEAR=${year}.`,
    };
  if (settings.lutFinancialYear !== year)
    return {
      open: false,
      why: "lut-of-another-year",
      words: `Selling abroad is off: the Letter of Undertaking configured (${settings.lutArn}) is for ${settings.lutFinancialYear}, and an export invoice issued today falls in ${year}. File this year's (Form GST RFD-11) and set GST_LUT_ARN and GST_LUT_FINANCIAL_YEAR=${year}.`,
    };
  return {
    open: true,
    currencies: settings.currencies,
    lut: { arn: settings.lutArn, financialYear: settings.lutFinancialYear },
  };
}

/** Whether the site sells abroad at `now`, from this process's configuration. */
export function sellingAbroad(now: Date = new Date()): SellingAbroad {
  const config = env();
  return decideSellingAbroad(
    {
      currencies: config.SELL_ABROAD_CURRENCIES,
      lutArn: config.GST_LUT_ARN,
      lutFinancialYear: config.GST_LUT_FINANCIAL_YEAR,
    },
    now,
  );
}

/** What /admin says of it: what is sold under which LUT, or why nothing is (a warning if fixable). */
export type SellingAbroadStatus =
  | { open: true; currencies: readonly string[]; arn: string; financialYear: string }
  | { open: false; warn: boolean; words: string };

export function sellingAbroadStatus(now: Date = new Date()): SellingAbroadStatus {
  const abroad = sellingAbroad(now);
  return abroad.open
    ? { open: true, currencies: abroad.currencies, ...abroad.lut }
    : { open: false, warn: abroad.why !== "no-currencies", words: abroad.words };
}
