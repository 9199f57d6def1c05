/**
 * The operator's coupon commands (/admin/coupons): create one linked to a Razorpay offer, and
 * disable one. Both audited. A coupon is never edited: its terms are what was sold, and a
 * subscription bought with it keeps its offer whatever happens to the coupon afterwards.
 */
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { COUPON_CODE, couponPrice, normalizeCouponCode } from "~/lib/coupons";
import { addIstDays, istDayStart } from "~/lib/india-time";
import { PAID_PLAN_IDS, planById, planLabel } from "~/lib/plans";
import type { Session } from "../auth/session";
import { audit } from "../admin/audit.server";
import { db as defaultDb, type Database } from "../db";
import {
  COUPON_DURATIONS,
  COUPON_KINDS,
  couponRedemptions,
  coupons,
  type CouponRow,
  OFFER_METHODS,
} from "../db/schema";
import { AppError } from "../http/errors";
import { redemptionCounts } from "./redemptions.server";

const optionalInt = (min: number, max: number, message: string) =>
  z.preprocess(
    (value) => (value === "" || value === undefined ? undefined : value),
    z.coerce.number({ error: message }).int(message).min(min, message).max(max, message).optional(),
  );

const day = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date.")
    .refine((value) => istDayStart(value) !== null, "Enter a real date.")
    .optional(),
);

/** The admin form: strings as posted, checked and turned into a coupon's terms. */
export const couponFormSchema = z
  .object({
    intent: z.literal("create"),
    code: z
      .string()
      .transform(normalizeCouponCode)
      .pipe(z.string().regex(COUPON_CODE, "Use 3–32 letters, digits or hyphens.")),
    kind: z.enum(COUPON_KINDS, { error: "Choose percent or a flat amount." }),
    amount: z
      .string()
      .trim()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter a number, like 20 or 150.50."),
    duration: z.enum(COUPON_DURATIONS, { error: "Choose how long the discount lasts." }),
    cycles: optionalInt(2, 120, "Enter 2 to 120 payments."),
    ...Object.fromEntries(PAID_PLAN_IDS.map((id) => [`plan-${id}`, z.literal("on").optional()])),
    offerId: z
      .string()
      .trim()
      .regex(
        /^offer_[A-Za-z0-9]{6,40}$/,
        "Paste the offer id from Razorpay, like offer_JCTD1XMlUmzF6Z.",
      ),
    offerMethod: z.enum(OFFER_METHODS, { error: "Choose the offer's payment method." }),
    validFrom: day,
    validUntil: day,
    maxRedemptions: optionalInt(1, 1_000_000, "Enter a whole number from 1, or leave it empty."),
    perCustomer: optionalInt(1, 100, "Enter 1 to 100."),
    firstPurchaseOnly: z.literal("on").optional(),
  })
  .superRefine((input, ctx) => {
    if (input.duration === "cycles" && input.cycles === undefined)
      ctx.addIssue({ code: "custom", path: ["cycles"], message: "Enter 2 to 120 payments." });
    if (input.validFrom && input.validUntil && input.validUntil < input.validFrom)
      ctx.addIssue({
        code: "custom",
        path: ["validUntil"],
        message: "The last day comes on or after the first.",
      });
    const amount = Number(input.amount);
    if (input.kind === "percent" && (!Number.isInteger(amount) || amount < 1 || amount > 95))
      ctx.addIssue({
        code: "custom",
        path: ["amount"],
        message: "Enter a whole percent, 1 to 95.",
      });
    if (input.kind === "flat" && amount < 1)
      ctx.addIssue({ code: "custom", path: ["amount"], message: "Enter at least ₹1." });
  });

export type CouponForm = z.output<typeof couponFormSchema>;

/** The form's plan checkboxes as plan ids; none ticked means every paid plan. */
function chosenPlans(input: CouponForm): string[] {
  const fields = input as Record<string, unknown>;
  return PAID_PLAN_IDS.filter((id) => fields[`plan-${id}`] === "on");
}

export async function createCoupon(
  session: Session,
  input: CouponForm,
  database: Database = defaultDb(),
): Promise<CouponRow> {
  const kind = input.kind;
  const amount = kind === "percent" ? Number(input.amount) : Math.round(Number(input.amount) * 100);
  const planIds = chosenPlans(input);
  for (const id of planIds.length > 0 ? planIds : PAID_PLAN_IDS) {
    const plan = planById(id as (typeof PAID_PLAN_IDS)[number]);
    if (couponPrice(plan.pricePaise, { kind, amount }) === null)
      throw new AppError(
        "invalid",
        `That leaves ₹1 or less to pay for ${planLabel(plan)}; Razorpay does not apply such an offer.`,
        { field: "amount" },
      );
  }
  const values = {
    code: input.code,
    kind,
    amount,
    duration: input.duration,
    durationCycles: input.duration === "cycles" ? (input.cycles ?? null) : null,
    planIds,
    providerOfferId: input.offerId,
    offerMethod: input.offerMethod,
    // India days: from the first day's start to the end of the last (the next day's start).
    validFrom: input.validFrom ? istDayStart(input.validFrom) : null,
    validUntil: input.validUntil ? istDayStart(addIstDays(input.validUntil, 1)) : null,
    maxRedemptions: input.maxRedemptions ?? null,
    perCustomer: input.perCustomer ?? 1,
    firstPurchaseOnly: input.firstPurchaseOnly === "on",
  };
  return database.transaction(async (tx) => {
    const [row] = await tx.insert(coupons).values(values).onConflictDoNothing().returning();
    if (!row)
      throw new AppError("conflict", `There is already a coupon ${input.code}.`, { field: "code" });
    await audit(tx, session, {
      action: "coupon.create",
      targetUserId: null,
      target: row.code,
      before: null,
      after: values,
    });
    return row;
  });
}

/** Disabled at once for new checkouts; subscriptions already bought keep their discount. */
export async function disableCoupon(
  session: Session,
  couponId: string,
  database: Database = defaultDb(),
): Promise<CouponRow> {
  return database.transaction(async (tx) => {
    const [row] = await tx
      .update(coupons)
      .set({ disabledAt: new Date() })
      .where(and(eq(coupons.id, couponId), isNull(coupons.disabledAt)))
      .returning();
    if (!row) throw new AppError("not_found", "That coupon does not exist or is already disabled.");
    await audit(tx, session, {
      action: "coupon.disable",
      targetUserId: null,
      target: row.code,
      before: { disabledAt: null },
      after: { disabledAt: row.disabledAt },
    });
    return row;
  });
}

export interface CouponListing extends CouponRow {
  /** Redemptions that count (abandoned checkouts do not). */
  redeemed: number;
}

/** Every coupon, newest first, with the redemptions that count against it. */
export async function listCoupons(database: Database = defaultDb()): Promise<CouponListing[]> {
  const rows = await database.select().from(coupons).orderBy(desc(coupons.createdAt));
  const counts = await database
    .select({ couponId: couponRedemptions.couponId, n: count() })
    .from(couponRedemptions)
    .where(redemptionCounts(new Date()))
    .groupBy(couponRedemptions.couponId);
  const byCoupon = new Map(counts.map((row) => [row.couponId, row.n]));
  return rows.map((row) => ({ ...row, redeemed: byCoupon.get(row.id) ?? 0 }));
}
