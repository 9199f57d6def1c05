/**
 * Which currency /pricing shows (issue 56, decision 0061): one at a time, chosen by the visitor
 * with the page's switch and remembered in the `currency` cookie for a year. Rupees unless the
 * visitor chose otherwise: the home market, and the page every shared cache stores. Only the
 * currencies sold now are offered (rupees alone while selling abroad is off).
 */
import { type Currency, isCurrency } from "~/lib/money";
import { sellingAbroad } from "./selling-abroad.server";

export const CURRENCY_COOKIE = "currency";
const ONE_YEAR = 60 * 60 * 24 * 365;

/** Rupees, then each currency sold abroad now. */
export function offeredCurrencies(now: Date = new Date()): readonly Currency[] {
  const abroad = sellingAbroad(now);
  return abroad.open ? ["INR", ...abroad.currencies] : ["INR"];
}

/** A currency offered now, or null: what a link or a cookie names is checked against this. */
export function offeredCurrency(value: unknown, now: Date = new Date()): Currency | null {
  return isCurrency(value) && offeredCurrencies(now).includes(value) ? value : null;
}

/** The currency the visitor's cookie remembers, if it is still offered. */
export function rememberedCurrency(cookieHeader: string | null): Currency | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === CURRENCY_COOKIE) return offeredCurrency(value);
  }
  return null;
}

export function currencyCookie(currency: Currency, secure: boolean): string {
  return `${CURRENCY_COOKIE}=${currency}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export type PricingCurrency =
  { redirectTo: string } | { shown: Currency; offered: readonly Currency[] };

/**
 * The currency of a /pricing request: `?currency=` when offered; without it, the remembered one
 * (a redirect to its address, so every page in a currency has its own URL); else rupees.
 */
export function pricingCurrency(requestUrl: string, cookieHeader: string | null): PricingCurrency {
  const url = new URL(requestUrl);
  const offered = offeredCurrencies();
  const asked = url.searchParams.get("currency");
  if (asked !== null) {
    const shown = offeredCurrency(asked);
    return { shown: shown ?? "INR", offered };
  }
  const remembered = rememberedCurrency(cookieHeader);
  if (remembered && remembered !== "INR") {
    url.searchParams.set("currency", remembered);
    return { redirectTo: `${url.pathname}${url.search}` };
  }
  return { shown: "INR", offered };
}
