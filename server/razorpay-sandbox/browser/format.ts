/** Money and billing periods as the sandbox's pages show them (browser scripts and server HTML). */

const formats = new Map<string, Intl.NumberFormat>();

/**
 * An amount in its currency's subunit as Razorpay's checkout shows it: 69900 INR → "₹699.00",
 * 8900 USD → "$89.00". Split in integers and handed to Intl as a decimal string, never a float.
 */
export function formatAmount(amount: number, currency: string): string {
  let format = formats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(currency === "INR" ? "en-IN" : "en-US", {
      style: "currency",
      currency,
    });
    formats.set(currency, format);
  }
  const sign = amount < 0 ? "-" : "";
  const whole = Math.floor(Math.abs(amount) / 100);
  const cents = String(Math.abs(amount) % 100).padStart(2, "0");
  // Browsers with ES2023's Intl take the string as an exact decimal; older ones convert it to a
  // number, exact for any amount a checkout shows. The ES2019 library here types it number only.
  return format.format(`${sign}${whole}.${cents}` as unknown as number);
}

const UNITS: Record<string, [string, string]> = {
  daily: ["day", "days"],
  weekly: ["week", "weeks"],
  monthly: ["month", "months"],
  yearly: ["year", "years"],
};

/** "per month", "every 3 months". */
export function perText(period: string, interval: number): string {
  const [one, many] = UNITS[period] ?? [period, period];
  return interval === 1 ? `per ${one}` : `every ${interval} ${many}`;
}
