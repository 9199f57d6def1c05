/**
 * Issuing documents: a tax invoice for every captured subscription payment, a credit note for
 * every refund. Called inside the transaction that records the payment or refund, so a document
 * exists exactly when its payment does; the number is taken from the series counter in that same
 * transaction (a rollback gives it back, so numbers never skip). Its PDF is rendered there too and
 * stored with the row: what is served later is those bytes (`stored-pdf.server.ts`).
 */
import { and, desc, eq, or, sql } from "drizzle-orm";
import { type Buyer, personBuyer, teamBuyer } from "../billing/buyer";
import { istDay } from "~/lib/india-time";
import { site } from "~/config/site";
import { stateByCode } from "~/lib/gst";
import { findPlan, planLabel } from "~/lib/plans";
import {
  billingProfiles,
  invoiceColumns,
  invoiceSeries,
  invoices,
  type InvoiceRow,
  refunds,
  disputes,
  teamProfiles,
  user as users,
} from "../db/schema";
import type { Executor } from "../db";
import {
  computeExportInvoice,
  computeTaxInvoice,
  creditNoteFor,
  financialYear,
  formatDocumentNumber,
} from "./engine.server";
import { type Currency, currencyName } from "~/lib/money";
import { countryName } from "~/lib/countries";
import { logger } from "../logger";
import { sellingAbroad } from "../billing/selling-abroad.server";
import { formatDate } from "~/lib/dates";
import { valueAtReferenceRate } from "./reference-rates.server";
import { renderForIssue } from "./stored-pdf.server";
import type { DocumentKind, InvoiceDocument, InvoiceLine, Party, TaxInvoice } from "./types";

/** The company as the supplier on every document (copied into each one as issued). */
export function supplierParty(): Party {
  const { company } = site;
  const { address } = company;
  return {
    legalName: company.legalName,
    addressLines: [
      address.line1,
      address.line2,
      `${address.city}, ${address.state} ${address.postalCode}`,
    ].filter(Boolean),
    stateCode: address.stateCode,
    stateName: stateByCode(address.stateCode)?.name ?? address.state,
    gstin: company.gstin,
    email: company.supportEmail,
    cin: company.cin,
  };
}

const unknownBuyer = (legalName = "Customer", email: string | null = null): Party => ({
  legalName,
  addressLines: [],
  stateCode: null,
  stateName: null,
  gstin: null,
  email,
});

/**
 * The buyer as their billing details say now (the moment of payment): a person's, or a team's
 * (issue 37, point 5: its billing details, GSTIN and state); unknown once neither is left.
 */
export async function buyerParty(executor: Executor, buyer: Buyer | null): Promise<Party> {
  if (!buyer) return unknownBuyer();
  switch (buyer.kind) {
    case "person":
      return personParty(executor, buyer.userId);
    case "team":
      return teamParty(executor, buyer.teamId);
  }
}

async function personParty(executor: Executor, userId: string): Promise<Party> {
  const [row] = await executor
    .select({ profile: billingProfiles, name: users.name, email: users.email })
    .from(users)
    .leftJoin(billingProfiles, eq(billingProfiles.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return unknownBuyer();
  const { profile } = row;
  if (!profile) return unknownBuyer(row.name, row.email);
  return partyOf(profile, row.email);
}

/** A billing profile (a person's or a team's: the same columns) as the buyer on a document. */
function partyOf(
  profile: Pick<
    typeof billingProfiles.$inferSelect,
    | "name"
    | "addressLine1"
    | "addressLine2"
    | "city"
    | "postalCode"
    | "stateCode"
    | "gstin"
    | "countryCode"
    | "taxId"
  >,
  email: string | null,
): Party {
  // A buyer abroad (issue 56): the country and any VAT id are printed, not the GST code 96.
  if (profile.countryCode !== "IN")
    return {
      legalName: profile.name,
      addressLines: [
        profile.addressLine1,
        profile.addressLine2,
        [profile.postalCode, profile.city].filter(Boolean).join(" "),
      ].filter(Boolean),
      stateCode: null,
      stateName: null,
      gstin: null,
      email,
      country: { code: profile.countryCode, name: countryName(profile.countryCode) },
      taxId: profile.taxId,
    };
  return {
    legalName: profile.name,
    addressLines: [
      profile.addressLine1,
      profile.addressLine2,
      `${profile.city} ${profile.postalCode}`,
    ].filter(Boolean),
    stateCode: profile.stateCode,
    stateName: stateByCode(profile.stateCode)?.name ?? null,
    gstin: profile.gstin,
    email,
  };
}

async function teamParty(executor: Executor, teamId: string): Promise<Party> {
  const [profile] = await executor
    .select()
    .from(teamProfiles)
    .where(eq(teamProfiles.organizationId, teamId));
  return profile ? partyOf(profile, null) : unknownBuyer("Team");
}

/** The next number of a series, taken under the counter row's lock until the caller commits. */
async function allocate(executor: Executor, series: string): Promise<number> {
  const [row] = await executor
    .insert(invoiceSeries)
    .values({ series, lastNumber: 1 })
    .onConflictDoUpdate({
      target: invoiceSeries.series,
      set: { lastNumber: sql`${invoiceSeries.lastNumber} + 1` },
    })
    .returning({ lastNumber: invoiceSeries.lastNumber });
  if (!row) throw new Error(`no number allocated in ${series}`);
  return row.lastNumber;
}

async function store(
  executor: Executor,
  input: {
    kind: DocumentKind;
    computed: TaxInvoice;
    issuedAt: Date;
    userId: string | null;
    /** A team's document: its owner and billing managers see it (issue 37). */
    teamId?: string | null;
    paymentId: string | null;
    /** False for a replacement invoice: the payment's own (credited) invoice keeps the link. */
    linkPayment?: boolean;
    refundId?: string | null;
    /** The lost dispute a credit note is for (issue 59). */
    disputeId?: string | null;
    original?: InvoiceRow | null;
    reason?: string | null;
  },
): Promise<InvoiceRow> {
  const fy = financialYear(input.issuedAt);
  const series = `${input.kind}:${fy.short}`;
  const sequence = await allocate(executor, series);
  const number = formatDocumentNumber({
    prefix: site.invoicing.prefix,
    kind: input.kind,
    fyShort: fy.short,
    sequence,
  });
  const document: InvoiceDocument = {
    ...input.computed,
    kind: input.kind,
    number,
    issuedAt: input.issuedAt.toISOString(),
    paymentId: input.paymentId,
    original: input.original
      ? { number: input.original.number, issuedAt: input.original.issuedAt.toISOString() }
      : null,
    reason: input.reason ?? null,
  };
  const { tax } = input.computed;
  // Rendered once, here: the PDF is part of what is issued. (The series counter stays locked
  // meanwhile, as for the rest of the transaction: numbers are issued one after the other.)
  const { pdf, pdfSha256 } = await renderForIssue(document);
  // A plain insert: a second document for the same payment or refund violates a unique index
  // and rolls the whole transaction back, number included.
  const [row] = await executor
    .insert(invoices)
    .values({
      kind: input.kind,
      number,
      series,
      sequence,
      userId: input.userId,
      teamId: input.teamId ?? null,
      providerPaymentId: input.linkPayment === false ? null : input.paymentId,
      providerRefundId: input.refundId ?? null,
      providerDisputeId: input.disputeId ?? null,
      originalInvoiceId: input.original?.id ?? null,
      issuedAt: input.issuedAt,
      b2b: input.computed.b2b,
      placeOfSupply: input.computed.placeOfSupply.code,
      taxablePaise: tax.taxablePaise,
      cgstPaise: tax.cgstPaise,
      sgstPaise: tax.sgstPaise,
      igstPaise: tax.igstPaise,
      totalPaise: tax.totalPaise,
      currency: input.computed.export?.currency ?? "INR",
      currencyAmount: input.computed.export?.amount ?? null,
      document,
      pdf,
      pdfSha256,
    })
    .returning(invoiceColumns);
  if (!row) throw new Error("invoice was not stored");
  return row;
}

/**
 * A period bound as the India calendar day it falls on: a payment at 00:48 IST on 24 Nov is
 * 23 Nov in UTC, and its invoice must not say its period began the day before it is dated.
 */
const isoDay = (date: Date) => istDay(date);

/**
 * The current invoice of a payment: its own, or the replacement issued when the buyer's details
 * were corrected (which names the payment on the document only).
 */
export async function invoiceForPayment(
  executor: Executor,
  paymentId: string,
): Promise<InvoiceRow | null> {
  const [row] = await executor
    .select(invoiceColumns)
    .from(invoices)
    .where(
      and(
        eq(invoices.kind, "invoice"),
        or(
          eq(invoices.providerPaymentId, paymentId),
          sql`${invoices.document}->>'paymentId' = ${paymentId}`,
        ),
      ),
    )
    .orderBy(desc(invoices.createdAt), desc(invoices.sequence))
    .limit(1);
  return row ?? null;
}

/**
 * The tax invoice of a captured payment; the existing one when it was issued before (a
 * redelivered or replayed event).
 */
export async function issueInvoiceForPayment(
  executor: Executor,
  input: PaymentToInvoice & {
    /** The coupon the subscription was bought with: the discount is shown before tax. */
    couponCode?: string | null;
  },
): Promise<InvoiceRow> {
  const existing = await invoiceForPayment(executor, input.paymentId);
  if (existing) return existing;
  const { team } = input;
  const computed = computeTaxInvoice({
    amountPaise: input.amountPaise,
    ratePercent: site.pricing.gstRatePercent,
    supplier: supplierParty(),
    buyer: await payerParty(executor, input),
    quantity: team?.seats ?? 1,
    line: lineOf(input),
    list: input.couponCode
      ? { pricePaise: listPriceOf(input.planId), label: `Coupon ${input.couponCode}` }
      : null,
  });
  return store(executor, {
    kind: "invoice",
    computed,
    issuedAt: input.paidAt,
    userId: input.userId,
    teamId: team?.id ?? null,
    paymentId: input.paymentId,
  });
}

/** A captured payment, as its invoice needs it. */
interface PaymentToInvoice {
  paymentId: string;
  /** In the payment's currency's minor unit. */
  amountPaise: number;
  paidAt: Date;
  userId: string | null;
  planId: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  /**
   * A team's seats (issue 37): the invoice is the team's, B2B to its GSTIN, for N seats (or N
   * seats added for the rest of a cycle).
   */
  team?: { id: string; seats: number; added?: boolean } | null;
}

/** Who paid, as the document prints them: the team, the person, or an unknown buyer. */
function payerParty(executor: Executor, input: PaymentToInvoice): Promise<Party> {
  const { team } = input;
  return buyerParty(
    executor,
    team ? teamBuyer(team.id) : input.userId ? personBuyer(input.userId) : null,
  );
}

/** The one line of a subscription payment's document. */
function lineOf(
  input: PaymentToInvoice,
): Omit<InvoiceLine, "taxablePaise" | "quantity" | "discount"> {
  const { team } = input;
  return {
    description: team
      ? `${site.invoicing.sacDescription}: ${site.product.name} ${planLabel(input.planId)} subscription, ${team.seats === 1 ? "1 seat" : `${team.seats} seats`}${team.added ? " added for the rest of the period" : ""}`
      : `${site.invoicing.sacDescription}: ${site.product.name} ${planLabel(input.planId)} subscription`,
    sac: site.invoicing.sac,
    periodStart: input.periodStart ? isoDay(input.periodStart) : null,
    // The period's last day, inclusive.
    periodEnd: input.periodEnd ? isoDay(new Date(input.periodEnd.getTime() - 86_400_000)) : null,
  };
}

/**
 * The export invoice of a captured payment in a foreign currency (issue 56); the existing one
 * when it was issued before. Null, logged for the operator, when one cannot be issued
 * truthfully: Razorpay reported no rupee value for the payment, or no Letter of Undertaking covers
 * the day it was paid (an export without one owes IGST, which this site does not compute). The
 * payment and the subscription go on either way: the buyer paid.
 */
export async function issueExportInvoiceForPayment(
  executor: Executor,
  input: PaymentToInvoice & {
    currency: Exclude<Currency, "INR">;
    /** Its value in rupees as Razorpay reported it (payments.inr_value_paise). */
    inrValuePaise: number | null;
  },
): Promise<InvoiceRow | null> {
  const existing = await invoiceForPayment(executor, input.paymentId);
  if (existing) return existing;
  const abroad = sellingAbroad(input.paidAt);
  if (!abroad.open) {
    logger().error(
      { paymentId: input.paymentId, currency: input.currency },
      `No export invoice for payment ${input.paymentId}: ${abroad.words}`,
    );
    return null;
  }
  // Razorpay's conversion of the payment; else the RBI reference rate of its day, if entered.
  const reference =
    input.inrValuePaise === null
      ? await valueAtReferenceRate(executor, {
          paymentId: input.paymentId,
          amount: input.amountPaise,
          currency: input.currency,
          paidAt: input.paidAt,
        })
      : null;
  const inr = input.inrValuePaise ?? reference?.inrPaise ?? null;
  if (inr === null) {
    logger().error(
      { paymentId: input.paymentId, currency: input.currency },
      `No export invoice yet for payment ${input.paymentId} in ${currencyName(input.currency)}: Razorpay reported no rupee value; enter the RBI reference rate of ${istDay(input.paidAt)} on /admin/exchange-rates`,
    );
    return null;
  }
  const computed = computeExportInvoice({
    amount: input.amountPaise,
    currency: input.currency,
    inrPaise: inr,
    rateSource: reference
      ? `RBI reference rate of ${formatDate(reference.day)}`
      : "Razorpay's conversion of this payment",
    ...(reference ? { rateE4: reference.rateE4 } : {}),
    lut: abroad.lut,
    supplier: supplierParty(),
    buyer: await payerParty(executor, input),
    line: lineOf(input),
    quantity: input.team?.seats ?? 1,
  });
  return store(executor, {
    kind: "invoice",
    computed,
    issuedAt: input.paidAt,
    userId: input.userId,
    teamId: input.team?.id ?? null,
    paymentId: input.paymentId,
  });
}

/** A plan's listed price (GST included); 0 for a plan the configuration no longer has. */
function listPriceOf(planId: string): number {
  return findPlan(planId)?.pricePaise ?? 0;
}

/** A credit note for a refund of an invoiced payment; null when the payment has no invoice. */
export async function issueCreditNoteForRefund(
  executor: Executor,
  input: {
    refundId: string;
    paymentId: string;
    amountPaise: number;
    refundedAt: Date;
    reason?: string | null;
  },
): Promise<InvoiceRow | null> {
  const [existing] = await executor
    .select(invoiceColumns)
    .from(invoices)
    .where(eq(invoices.providerRefundId, input.refundId));
  if (existing) return existing;
  const original = await invoiceForPayment(executor, input.paymentId);
  if (!original) return null;
  const computed = creditNoteFor(original.document, input.amountPaise);
  return store(executor, {
    kind: "credit_note",
    computed,
    issuedAt: input.refundedAt,
    userId: original.userId,
    teamId: original.teamId,
    paymentId: input.paymentId,
    refundId: input.refundId,
    original,
    reason: input.reason ?? "Refund",
  });
}

/**
 * The credit note for a lost dispute (a chargeback): the amount the bank took back, credited
 * against the payment's invoice as a refund is. Once per dispute (its id is unique on invoices);
 * null while the payment has no invoice yet (`creditRefundsOf` issues it when it does).
 */
export async function issueCreditNoteForDispute(
  executor: Executor,
  input: { disputeId: string; paymentId: string; amountMinor: number; at: Date },
): Promise<InvoiceRow | null> {
  const [existing] = await executor
    .select(invoiceColumns)
    .from(invoices)
    .where(eq(invoices.providerDisputeId, input.disputeId));
  if (existing) return existing;
  const original = await invoiceForPayment(executor, input.paymentId);
  if (!original) return null;
  return store(executor, {
    kind: "credit_note",
    computed: creditNoteFor(original.document, input.amountMinor),
    issuedAt: input.at,
    userId: original.userId,
    teamId: original.teamId,
    paymentId: input.paymentId,
    disputeId: input.disputeId,
    original,
    reason: "Chargeback: the payment was returned to the customer by their bank",
  });
}

/**
 * A buyer's GSTIN corrected on an issued invoice: never edited in place, but cancelled by a
 * full credit note and replaced by a new invoice with the corrected buyer.
 */
export async function reissueWithBuyer(
  executor: Executor,
  original: InvoiceRow,
  buyer: Party,
  at: Date,
): Promise<{ creditNote: InvoiceRow; invoice: InvoiceRow }> {
  const { document } = original;
  // An export names no GSTIN to correct; its buyer's details are corrected by a credit note and
  // a new sale, as the law has it for any other change.
  if (document.export) throw new Error(`${original.number} is an export invoice: no GSTIN on it`);
  const creditNote = await store(executor, {
    kind: "credit_note",
    computed: creditNoteFor(document, original.totalPaise),
    issuedAt: at,
    userId: original.userId,
    teamId: original.teamId,
    paymentId: original.providerPaymentId,
    original,
    reason: "Buyer details corrected",
  });
  const line = document.lines[0];
  const computed = computeTaxInvoice({
    amountPaise: original.totalPaise,
    ratePercent: site.pricing.gstRatePercent,
    supplier: document.supplier,
    buyer,
    line: {
      description: line?.description ?? site.invoicing.sacDescription,
      sac: line?.sac ?? site.invoicing.sac,
      periodStart: line?.periodStart ?? null,
      periodEnd: line?.periodEnd ?? null,
    },
    list: line?.discount
      ? { pricePaise: line.discount.listPricePaise, label: line.discount.label }
      : null,
    quantity: line?.quantity ?? 1,
  });
  // The replacement is not "the" invoice of the payment (that one stays, credited): it names
  // the payment on the document but does not take the payment's unique link.
  const invoice = await store(executor, {
    kind: "invoice",
    computed,
    issuedAt: at,
    userId: original.userId,
    teamId: original.teamId,
    paymentId: original.providerPaymentId,
    linkPayment: false,
    reason: `Replaces ${original.number}`,
  });
  return { creditNote, invoice };
}

/**
 * Credit notes for refunds and lost disputes recorded before their payment's invoice existed
 * (events out of order).
 */
export async function creditRefundsOf(executor: Executor, paymentId: string): Promise<void> {
  const lost = await executor
    .select()
    .from(disputes)
    .where(and(eq(disputes.providerPaymentId, paymentId), eq(disputes.status, "lost")));
  for (const dispute of lost)
    await issueCreditNoteForDispute(executor, {
      disputeId: dispute.providerDisputeId,
      paymentId,
      amountMinor: dispute.amountDeductedMinor || dispute.amountMinor,
      at: dispute.lostSettledAt ?? dispute.updatedAt,
    });
  const pending = await executor
    .select()
    .from(refunds)
    .where(and(eq(refunds.providerPaymentId, paymentId), eq(refunds.status, "processed")));
  for (const refund of pending)
    await issueCreditNoteForRefund(executor, {
      refundId: refund.providerRefundId,
      paymentId,
      amountPaise: refund.amountPaise,
      refundedAt: refund.createdAt,
      reason: refund.reason,
    });
}
