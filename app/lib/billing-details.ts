/**
 * The buyer details a GST tax invoice needs, as one zod schema shared by the checkout and
 * /billing forms (field hints) and their actions (the check that counts).
 */
import { z } from "zod";
import { INDIA, isCountryCode } from "./countries";
import { FOREIGN_COUNTRY, gstinMatchesState, stateByCode, validateGstin } from "./gst";

const line = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, { error: `Enter your ${label}.` })
    .max(max, { error: `Use at most ${max} characters.` });

export const billingDetailsSchema = z
  .object({
    name: line("name or company name", 200),
    addressLine1: line("address", 200),
    addressLine2: z.string().trim().max(200, { error: "Use at most 200 characters." }).default(""),
    city: line("city", 100),
    postalCode: z
      .string()
      .trim()
      .regex(/^[1-9][0-9]{5}$/, { error: "Enter the 6-digit PIN code." }),
    stateCode: z.string().refine((code) => stateByCode(code)?.current === true, {
      error: "Choose your state or union territory.",
    }),
    gstin: z.string().trim().toUpperCase().max(20).default(""),
  })
  .superRefine((details, ctx) => {
    if (details.gstin === "") return;
    const result = validateGstin(details.gstin);
    if (!result.ok) {
      ctx.addIssue({ code: "custom", path: ["gstin"], message: result.error });
      return;
    }
    if (!gstinMatchesState(result.gstin, details.stateCode)) {
      const state = stateByCode(details.stateCode)?.name ?? "the chosen state";
      ctx.addIssue({
        code: "custom",
        path: ["gstin"],
        message: `This GSTIN is registered in state ${result.stateCode}, not ${state}: choose the state of the registration.`,
      });
    }
  })
  .transform((details) => ({
    ...details,
    gstin: details.gstin === "" ? null : details.gstin,
    countryCode: INDIA,
    taxId: null,
  }));

/** The GST system's place of supply for every buyer outside India ("Foreign Country"). */
export const FOREIGN_STATE_CODE = FOREIGN_COUNTRY.code;

/**
 * A buyer abroad's details (issue 56): the address the export invoice prints, the country (any
 * but India: a buyer in India pays in rupees with GST), and a business's VAT or tax id if it has
 * one. Postal codes differ by country (some have none), so only their length is checked.
 */
export const abroadDetailsSchema = z
  .object({
    name: line("name or company name", 200),
    addressLine1: line("address", 200),
    addressLine2: z.string().trim().max(200, { error: "Use at most 200 characters." }).default(""),
    city: line("city", 100),
    postalCode: z.string().trim().max(20, { error: "Use at most 20 characters." }).default(""),
    countryCode: z
      .string()
      .refine(isCountryCode, { error: "Choose your country." })
      .refine((code) => code !== INDIA, {
        error:
          "A buyer in India pays in rupees with GST: choose Indian rupees on the pricing page.",
      }),
    taxId: z
      .string()
      .trim()
      .toUpperCase()
      .max(30, { error: "Use at most 30 characters." })
      .regex(/^[A-Z0-9 ./-]*$/, {
        error: "A VAT or tax id has letters and digits only (spaces, dots and dashes are fine).",
      })
      .default(""),
  })
  .transform((details) => ({
    ...details,
    stateCode: FOREIGN_STATE_CODE,
    gstin: null,
    // Written as the tax authority prints it: letters and digits, no separators.
    taxId: details.taxId.replace(/[\s./-]/g, "") || null,
  }));

/**
 * A buyer's details, in India or abroad: what a billing profile holds (either schema's output;
 * the database's check keeps a GSTIN and a foreign tax id on their own sides).
 */
export interface BillingDetails {
  name: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  postalCode: string;
  stateCode: string;
  gstin: string | null;
  countryCode: string;
  taxId: string | null;
}

/** Whether stored details are a buyer abroad's. */
export function isAbroad(details: Pick<BillingDetails, "countryCode">): boolean {
  return details.countryCode !== INDIA;
}
