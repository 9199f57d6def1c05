/** Money and billing periods as the sandbox's pages show them (browser scripts and server HTML). */

export const money = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });

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
