/**
 * The GST inside a charge still to come, split as its invoice will split it: the same engine, the
 * same supplier and the buyer's billing details as they are now (issue 34: the renewal centre and
 * checkout show "₹592.37 + ₹106.63 IGST" before the buyer pays).
 */
import { site } from "~/config/site";
import { personBuyer } from "../billing/buyer";
import type { Executor } from "../db";
import { placeOfSupply, splitGstInclusive } from "./engine.server";
import { buyerParty, supplierParty } from "./issue.server";
import type { TaxBreakdown } from "./types";

export async function taxOfCharge(
  executor: Executor,
  userId: string,
  amountPaise: number,
): Promise<TaxBreakdown> {
  const supplier = supplierParty();
  const place = placeOfSupply(await buyerParty(executor, personBuyer(userId)), supplier);
  return splitGstInclusive(
    amountPaise,
    site.pricing.gstRatePercent,
    place.code !== supplier.stateCode,
  );
}
