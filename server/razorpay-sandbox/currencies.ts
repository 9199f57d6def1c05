/**
 * The currencies the sandbox charges in, and how it converts a foreign one to rupees. Razorpay
 * takes about 90 currencies once an account has international payments enabled, and settles in
 * rupees at the rate of the moment of payment, reporting it on the payment as `base_amount` in
 * `base_currency` INR (razorpay.com/docs/payments/payments/currency-conversion). The sandbox takes
 * the few the site can sell in and GBP, at fixed rates of its own: real rates move, and a test
 * that knows the rate can check the arithmetic.
 */
export const SANDBOX_CURRENCIES = ["INR", "USD", "EUR", "GBP"] as const;
export type SandboxCurrency = (typeof SANDBOX_CURRENCIES)[number];

/** Paise per unit of each foreign currency: ₹84.50 to the dollar, and so on. */
export const SANDBOX_INR_RATES: Record<Exclude<SandboxCurrency, "INR">, number> = {
  USD: 84_50,
  EUR: 91_20,
  GBP: 107_30,
};

/** An amount's value in paise at the sandbox's rate (half a paisa rounds up). */
export function inrValue(amount: number, currency: SandboxCurrency): number {
  if (currency === "INR") return amount;
  return Math.round((amount * SANDBOX_INR_RATES[currency]) / 100);
}

/** The fields Razorpay adds to a payment or refund in a currency other than rupees. */
export function conversionFields(
  amount: number,
  currency: SandboxCurrency,
): { base_amount: number; base_currency: "INR" } | Record<string, never> {
  return currency === "INR"
    ? {}
    : { base_amount: inrValue(amount, currency), base_currency: "INR" };
}
