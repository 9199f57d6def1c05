/** The sample invoice Razorpay's website review asks for: the real engine and PDF, demo buyer. */
import { site } from "~/config/site";
import { istDay } from "~/lib/india-time";
import { computeTaxInvoice, financialYear, formatDocumentNumber } from "./engine.server";
import { supplierParty } from "./issue.server";
import type { InvoiceDocument } from "./types";

export function sampleInvoice(now: Date = new Date()): InvoiceDocument {
  const plan = site.plans.find(
    (candidate) => candidate.billingCycle === "monthly" && candidate.pricePaise > 0,
  );
  const amountPaise = plan?.pricePaise ?? 69_900;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  const computed = computeTaxInvoice({
    amountPaise,
    ratePercent: site.pricing.gstRatePercent,
    supplier: supplierParty(),
    buyer: {
      legalName: "Sample Buyer (specimen)",
      addressLines: ["Flat 4B, 21 Link Road", "Mumbai 400050"],
      stateCode: "27",
      stateName: "Maharashtra",
      gstin: null,
    },
    line: {
      description: `${site.invoicing.sacDescription}: ${site.product.name} Pro (monthly) subscription`,
      sac: site.invoicing.sac,
      periodStart: istDay(start),
      periodEnd: istDay(end),
    },
  });
  return {
    ...computed,
    kind: "invoice",
    number: formatDocumentNumber({
      prefix: site.invoicing.prefix,
      kind: "invoice",
      fyShort: financialYear(now).short,
      sequence: 1,
    }),
    issuedAt: start.toISOString(),
    paymentId: "pay_SAMPLE0000000",
    original: null,
    reason: "Specimen",
  };
}
