const wholeRupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  maximumFractionDigits: 0,
});
const withPaise = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** Paise as rupees with Indian digit grouping: 10000000 → "₹1,00,000"; paise shown only if any. */
export function formatInr(paise: number): string {
  if (!Number.isInteger(paise)) throw new Error(`amount in paise must be an integer: ${paise}`);
  return paise % 100 === 0 ? wholeRupees.format(paise / 100) : withPaise.format(paise / 100);
}

/** The rupee amount as a plain decimal string for machine-readable places (JSON-LD, analytics). */
export function rupeesDecimal(paise: number): string {
  return (paise / 100).toFixed(2);
}
