/**
 * GST state codes and GSTIN validation: one table and one check used by the billing form, the
 * invoice engine and the admin. Browser-safe.
 */

export interface GstState {
  /** Two digits, as in the first two characters of a GSTIN. */
  code: string;
  name: string;
  kind: "state" | "union-territory" | "other";
  /** False for codes kept only for old registrations (merged or divided states). */
  current: boolean;
}

const S = "state" as const;
const UT = "union-territory" as const;

export const GST_STATES: readonly GstState[] = [
  { code: "01", name: "Jammu and Kashmir", kind: UT, current: true },
  { code: "02", name: "Himachal Pradesh", kind: S, current: true },
  { code: "03", name: "Punjab", kind: S, current: true },
  { code: "04", name: "Chandigarh", kind: UT, current: true },
  { code: "05", name: "Uttarakhand", kind: S, current: true },
  { code: "06", name: "Haryana", kind: S, current: true },
  { code: "07", name: "Delhi", kind: UT, current: true },
  { code: "08", name: "Rajasthan", kind: S, current: true },
  { code: "09", name: "Uttar Pradesh", kind: S, current: true },
  { code: "10", name: "Bihar", kind: S, current: true },
  { code: "11", name: "Sikkim", kind: S, current: true },
  { code: "12", name: "Arunachal Pradesh", kind: S, current: true },
  { code: "13", name: "Nagaland", kind: S, current: true },
  { code: "14", name: "Manipur", kind: S, current: true },
  { code: "15", name: "Mizoram", kind: S, current: true },
  { code: "16", name: "Tripura", kind: S, current: true },
  { code: "17", name: "Meghalaya", kind: S, current: true },
  { code: "18", name: "Assam", kind: S, current: true },
  { code: "19", name: "West Bengal", kind: S, current: true },
  { code: "20", name: "Jharkhand", kind: S, current: true },
  { code: "21", name: "Odisha", kind: S, current: true },
  { code: "22", name: "Chhattisgarh", kind: S, current: true },
  { code: "23", name: "Madhya Pradesh", kind: S, current: true },
  { code: "24", name: "Gujarat", kind: S, current: true },
  // Merged into 26 in 2020; old registrations keep the code.
  { code: "25", name: "Daman and Diu", kind: UT, current: false },
  { code: "26", name: "Dadra and Nagar Haveli and Daman and Diu", kind: UT, current: true },
  { code: "27", name: "Maharashtra", kind: S, current: true },
  // Andhra Pradesh before the 2014 division (37 since).
  { code: "28", name: "Andhra Pradesh (before division)", kind: S, current: false },
  { code: "29", name: "Karnataka", kind: S, current: true },
  { code: "30", name: "Goa", kind: S, current: true },
  { code: "31", name: "Lakshadweep", kind: UT, current: true },
  { code: "32", name: "Kerala", kind: S, current: true },
  { code: "33", name: "Tamil Nadu", kind: S, current: true },
  { code: "34", name: "Puducherry", kind: UT, current: true },
  { code: "35", name: "Andaman and Nicobar Islands", kind: UT, current: true },
  { code: "36", name: "Telangana", kind: S, current: true },
  { code: "37", name: "Andhra Pradesh", kind: S, current: true },
  { code: "38", name: "Ladakh", kind: UT, current: true },
  { code: "97", name: "Other Territory", kind: "other", current: false },
];

/** The 36 states and union territories a buyer can choose, by name. */
export const BILLING_STATES: readonly GstState[] = GST_STATES.filter((state) => state.current).sort(
  (a, b) => a.name.localeCompare(b.name, "en"),
);

const BY_CODE = new Map(GST_STATES.map((state) => [state.code, state]));

/**
 * The GST system's place of supply for a buyer outside India (an export of services, decision
 * 0060): the code every buyer abroad has for a state. Not in the table above: no GSTIN starts with
 * it, and nobody chooses it as a state.
 */
export const FOREIGN_COUNTRY = { code: "96", name: "Foreign Country" } as const;

export function stateByCode(code: string): GstState | undefined {
  return BY_CODE.get(code);
}

export function stateByName(name: string): GstState | undefined {
  const wanted = name.trim().toLowerCase();
  return GST_STATES.find((state) => state.name.toLowerCase() === wanted);
}

export function isGstStateCode(code: string): boolean {
  return BY_CODE.has(code);
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Luhn mod 36 over the first 14 characters: the 15th character of a GSTIN. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let index = 0; index < 14; index += 1) {
    const value = ALPHABET.indexOf(first14.charAt(index));
    if (value < 0) throw new Error(`not a GSTIN character: ${first14.charAt(index)}`);
    const product = value * (index % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET.charAt((36 - (sum % 36)) % 36);
}

const FORMAT = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/**
 * The GSTIN the forms show as an example: a Karnataka one whose check character is computed, so
 * it passes the form's own check (the old "29ABCDE1234F1Z5" did not; issue 34).
 */
export const GSTIN_EXAMPLE = `29ABCDE1234F1Z${gstinCheckCharacter("29ABCDE1234F1Z")}`;

export type GstinResult =
  { ok: true; gstin: string; stateCode: string; pan: string } | { ok: false; error: string };

export function validateGstin(input: string): GstinResult {
  const gstin = input.trim().toUpperCase();
  if (gstin === "") return { ok: false, error: "Enter a GSTIN." };
  if (gstin.length !== 15) return { ok: false, error: "A GSTIN has 15 characters." };
  if (!FORMAT.test(gstin))
    return { ok: false, error: `That is not a GSTIN: it looks like ${GSTIN_EXAMPLE}.` };
  const stateCode = gstin.slice(0, 2);
  if (!isGstStateCode(stateCode))
    return { ok: false, error: "A GSTIN starts with a state code from 01 to 38 (or 97)." };
  if (gstinCheckCharacter(gstin.slice(0, 14)) !== gstin.charAt(14))
    return {
      ok: false,
      error: "The last character of that GSTIN does not match: check it for a typo.",
    };
  return { ok: true, gstin, stateCode, pan: gstin.slice(2, 12) };
}

/** Codes that name the same territory today (a merger and a division). */
const SAME_TERRITORY: Record<string, string> = { "25": "26", "26": "25", "28": "37", "37": "28" };

export function gstinMatchesState(gstin: string, stateCode: string): boolean {
  const code = gstin.slice(0, 2);
  return code === stateCode || SAME_TERRITORY[code] === stateCode;
}
