/**
 * The buyer details a GST tax invoice needs, as one zod schema shared by the checkout and
 * /billing forms (field hints) and their actions (the check that counts).
 */
import { z } from "zod";
import { gstinMatchesState, stateByCode, validateGstin } from "./gst";

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
  .transform((details) => ({ ...details, gstin: details.gstin === "" ? null : details.gstin }));

export type BillingDetails = z.output<typeof billingDetailsSchema>;
