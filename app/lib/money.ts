/**
 * The one money module: the currencies the site can sell in, their minor units, and how an
 * amount reads. Every amount is an integer in its currency's minor unit (paise, cents); nothing
 * here does arithmetic on a fraction of one (issue 56, decision 0060).
 */

/** The currencies a price can be set in: rupees, and the two a buyer abroad can pay in. */
export const CURRENCIES = ["INR", "USD", "EUR"] as const;
export type Currency = (typeof CURRENCIES)[number];
/** A currency a buyer outside India pays in (card only; an export of services). */
export type ForeignCurrency = Exclude<Currency, "INR">;
export const FOREIGN_CURRENCIES = ["USD", "EUR"] as const satisfies readonly ForeignCurrency[];

interface CurrencyFacts {
  /** Minor units in one major unit: 100 paise in a rupee, 100 cents in a dollar or a euro. */
  minorPerMajor: 100;
  /** How its amounts are written: Indian digit grouping for rupees. */
  locale: string;
  /** What a person calls it, in a sentence. */
  name: string;
}

const FACTS: Record<Currency, CurrencyFacts> = {
  INR: { minorPerMajor: 100, locale: "en-IN", name: "Indian rupees" },
  USD: { minorPerMajor: 100, locale: "en-US", name: "US dollars" },
  EUR: { minorPerMajor: 100, locale: "en-IE", name: "euros" },
};

/** An amount and its currency: what a price or a charge is wherever it may not be rupees. */
export interface Money {
  /** In the currency's minor unit. */
  amount: number;
  currency: Currency;
}

/** Its symbol alone, for a compact choice ("₹", "$", "€"). */
export function currencySymbol(currency: Currency): string {
  return SYMBOLS[currency];
}

const SYMBOLS: Record<Currency, string> = { INR: "₹", USD: "$", EUR: "€" };

export function isCurrency(value: unknown): value is Currency {
  return (CURRENCIES as readonly unknown[]).includes(value);
}

export function isForeignCurrency(value: unknown): value is ForeignCurrency {
  return (FOREIGN_CURRENCIES as readonly unknown[]).includes(value);
}

export function currencyName(currency: Currency): string {
  return FACTS[currency].name;
}

/** A throw for anything that is not a whole number of minor units: the one check, everywhere. */
export function assertMinorUnits(amount: number, currency: Currency = "INR"): void {
  if (!Number.isSafeInteger(amount))
    throw new Error(`an amount in ${currency} must be a whole number of minor units: ${amount}`);
}

const formats = new Map<string, Intl.NumberFormat>();
function formatter(currency: Currency, fractionDigits: 0 | 2): Intl.NumberFormat {
  const key = `${currency}:${fractionDigits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(FACTS[currency].locale, {
      style: "currency",
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formats.set(key, format);
  }
  return format;
}

/** An amount split in integers: its sign, whole major units and the minor units left over. */
function split(
  amount: number,
  currency: Currency,
): { sign: "-" | ""; major: number; minor: string } {
  assertMinorUnits(amount, currency);
  const per = FACTS[currency].minorPerMajor;
  return {
    sign: amount < 0 ? "-" : "",
    major: Math.floor(Math.abs(amount) / per),
    minor: String(Math.abs(amount) % per).padStart(2, "0"),
  };
}

/**
 * An amount in minor units as people read it: 69900 INR → "₹699", 12345678 INR → "₹1,23,456.78",
 * 900 USD → "$9", 8550 EUR → "€85.50". Minor units are shown only if there are any. The
 * formatter gets a decimal string (ECMA-402 takes it as an exact decimal), never a float.
 */
export function formatMoney(amount: number, currency: Currency): string {
  const { sign, major, minor } = split(amount, currency);
  const whole = minor === "00";
  const decimal = whole ? `${sign}${major}` : `${sign}${major}.${minor}`;
  return formatter(currency, whole ? 0 : 2).format(decimal as `${number}`);
}

/**
 * An amount in a currency a provider names (Razorpay's refunds and disputes carry it as text):
 * as `formatMoney` when it is one of ours, else the minor units with the code, never a guess.
 */
export function formatProviderMoney(amount: number, currency: string): string {
  return isCurrency(currency) ? formatMoney(amount, currency) : `${amount} ${currency} minor units`;
}

/** A Money as people read it (formatMoney of its amount and currency). */
export function formatPrice(money: Money): string {
  return formatMoney(money.amount, money.currency);
}

/** The amount as a plain decimal string for machine-readable places (JSON-LD, CSV, analytics). */
export function decimalOf(amount: number, currency: Currency): string {
  const { sign, major, minor } = split(amount, currency);
  return `${sign}${major}.${minor}`;
}

/** Paise as rupees with Indian digit grouping: 10000000 → "₹1,00,000"; paise shown only if any. */
export function formatInr(paise: number): string {
  return formatMoney(paise, "INR");
}

/** The rupee amount as a plain decimal string for machine-readable places (JSON-LD, analytics). */
export function rupeesDecimal(paise: number): string {
  return decimalOf(paise, "INR");
}
