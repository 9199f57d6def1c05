/** Reading issued documents: a buyer's list, one document, and the admin's period views. */
import { and, asc, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { istMonth, istMonthRange } from "~/lib/india-time";
import type { Buyer } from "../billing/buyer";
import { type Database, db as defaultDb } from "../db";
import { invoiceColumns, invoices, type InvoiceRow } from "../db/schema";

/**
 * A buyer's documents, newest first: a person's own, or a team's (issue 37, point 5: for its
 * owner and billing managers, whose page checked the role).
 */
export async function invoicesOf(
  buyer: Buyer,
  database: Database = defaultDb(),
): Promise<InvoiceRow[]> {
  return database
    .select(invoiceColumns)
    .from(invoices)
    .where(invoicesOfBuyer(buyer))
    .orderBy(desc(invoices.issuedAt), desc(invoices.number));
}

function invoicesOfBuyer(buyer: Buyer): SQL {
  switch (buyer.kind) {
    case "person":
      return eq(invoices.userId, buyer.userId);
    case "team":
      return eq(invoices.teamId, buyer.teamId);
  }
}

/** A buyer's latest document (invoice or credit note), or null before the first payment. */
export async function invoiceById(
  id: string,
  database: Database = defaultDb(),
): Promise<InvoiceRow | null> {
  if (!/^[0-9a-f-]{36}$/.test(id)) return null;
  const [row] = await database.select(invoiceColumns).from(invoices).where(eq(invoices.id, id));
  return row ?? null;
}

export const monthRange = istMonthRange;

export function currentMonth(now: Date = new Date()): string {
  return istMonth(now);
}

export interface InvoiceFilter {
  month: string;
  type: "b2b" | "b2c" | "";
  state: string;
}

export function parseInvoiceFilter(params: URLSearchParams, now: Date = new Date()): InvoiceFilter {
  const month = params.get("month") ?? "";
  const type = params.get("type") ?? "";
  const state = params.get("state") ?? "";
  return {
    month: monthRange(month) ? month : currentMonth(now),
    type: type === "b2b" || type === "b2c" ? type : "",
    state: /^\d{2}$/.test(state) ? state : "",
  };
}

export async function invoicesInPeriod(
  filter: InvoiceFilter,
  database: Database = defaultDb(),
): Promise<InvoiceRow[]> {
  const range = monthRange(filter.month);
  if (!range) return [];
  const conditions: SQL[] = [gte(invoices.issuedAt, range.from), lt(invoices.issuedAt, range.to)];
  if (filter.type) conditions.push(eq(invoices.b2b, filter.type === "b2b"));
  if (filter.state) conditions.push(eq(invoices.placeOfSupply, filter.state));
  return database
    .select(invoiceColumns)
    .from(invoices)
    .where(and(...conditions))
    .orderBy(asc(invoices.issuedAt), asc(invoices.number));
}

export interface PeriodTotals {
  documents: number;
  taxablePaise: number;
  cgstPaise: number;
  sgstPaise: number;
  igstPaise: number;
  totalPaise: number;
}

/** Invoices add, credit notes subtract: what the period owes. */
export function periodTotals(rows: readonly InvoiceRow[]): PeriodTotals {
  const totals: PeriodTotals = {
    documents: rows.length,
    taxablePaise: 0,
    cgstPaise: 0,
    sgstPaise: 0,
    igstPaise: 0,
    totalPaise: 0,
  };
  for (const row of rows) {
    const sign = row.kind === "credit_note" ? -1 : 1;
    totals.taxablePaise += sign * row.taxablePaise;
    totals.cgstPaise += sign * row.cgstPaise;
    totals.sgstPaise += sign * row.sgstPaise;
    totals.igstPaise += sign * row.igstPaise;
    totals.totalPaise += sign * row.totalPaise;
  }
  return totals;
}
