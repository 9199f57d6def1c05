import { Form, useActionData } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { z } from "zod";
import {
  couponFormSchema,
  createCoupon,
  disableCoupon,
  listCoupons,
} from "~/.server/coupons/admin.server";
import { requireAdmin } from "~/.server/auth/session";
import { env } from "~/.server/env";
import { done, formAction } from "~/.server/forms/action.server";
import {
  AdminPage,
  AdminSection,
  AdminTable,
  ChoiceGroup,
  TD,
  TD_NUM,
} from "~/components/admin/AdminUi";
import { Field, FormMessage, SelectField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { couponMethodText, couponSummary } from "~/lib/coupons";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { PAID_PLAN_IDS, planLabel } from "~/lib/plans";
import type { Route } from "./+types/coupons";

export const meta: Route.MetaFunction = () =>
  pageMeta("Coupons", "Coupon codes, the Razorpay offers that charge them, and their use.");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const coupons = await listCoupons();
  const referral = env().REFERRAL_COUPON ?? null;
  return {
    coupons: coupons.map((coupon) => ({
      id: coupon.id,
      code: coupon.code,
      summary: couponSummary(
        {
          code: coupon.code,
          kind: coupon.kind,
          amount: coupon.amount,
          duration: coupon.duration,
          durationCycles: coupon.durationCycles,
          offerMethod: coupon.offerMethod,
        },
        null,
      ),
      method: couponMethodText(coupon.offerMethod),
      plans:
        coupon.planIds.length === 0
          ? "Every paid plan"
          : coupon.planIds.map((id) => planLabel(id)).join(", "),
      offerId: coupon.providerOfferId,
      validFrom: coupon.validFrom?.toISOString() ?? null,
      // Stored as the instant after the last day; the page shows the last day.
      validUntil: coupon.validUntil
        ? new Date(coupon.validUntil.getTime() - 1).toISOString()
        : null,
      redeemed: coupon.redeemed,
      maxRedemptions: coupon.maxRedemptions,
      perCustomer: coupon.perCustomer,
      firstPurchaseOnly: coupon.firstPurchaseOnly,
      disabledAt: coupon.disabledAt?.toISOString() ?? null,
      referral: coupon.code === referral,
    })),
  };
}

const schema = z.union([
  couponFormSchema,
  z.object({ intent: z.literal("disable"), id: z.uuid() }),
]);

const ECHO = [
  "code",
  "kind",
  "amount",
  "duration",
  "cycles",
  "offerId",
  "offerMethod",
  "validFrom",
  "validUntil",
  "maxRedemptions",
  "perCustomer",
] as const;

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async (input, session) => {
      if (input.intent === "disable") {
        const coupon = await disableCoupon(session, input.id);
        return done(
          "disable",
          `${coupon.code} is disabled: nobody can use it from now on. Subscriptions bought with it keep their discount.`,
        );
      }
      const coupon = await createCoupon(session, input);
      return done(
        "create",
        `${coupon.code} is ready. Share it, or link to /pricing?coupon=${coupon.code}.`,
      );
    },
    { role: "admin", echo: ECHO },
  );
}

export default function CouponsPage({ loaderData }: Route.ComponentProps) {
  const { coupons } = loaderData;
  const result = useActionData<typeof action>();
  const pending = usePendingForms();
  const mine = (intent: string) => result && "intent" in result && result.intent === intent;
  const errors = mine("create") && result && "errors" in result ? result.errors : undefined;
  const values = (mine("create") && result && "values" in result ? result.values : undefined) ?? {};
  const kept = (name: string, fallback = "") => values[name] ?? fallback;

  return (
    <AdminPage>
      <PageHeader
        title="Coupons"
        lead="A coupon is charged by a Razorpay offer: make the offer in Razorpay's Dashboard with the same terms, then add the coupon here with its offer id. Coupons apply to prices in rupees only: a buyer abroad pays the price of their currency, and checkout says so."
      />

      <AdminSection id="coupons" title="All coupons">
        {mine("disable") && result && "message" in result ? (
          <FormMessage tone={result.ok ? "success" : "error"} message={result.message} />
        ) : null}
        {coupons.length === 0 ? (
          <p className="text-sm text-slate-300">No coupons yet: create the first one below.</p>
        ) : (
          <AdminTable
            caption="All coupons"
            columns={["Code", "Discount", "Plans", "Valid", "Used", "Razorpay offer", "State", ""]}
          >
            {coupons.map((coupon) => (
              <tr key={coupon.id} className="border-b border-slate-800/60">
                <td className={`${TD} font-mono`}>
                  {coupon.code}
                  {coupon.referral ? (
                    <span className="block font-sans text-slate-300">Referral coupon</span>
                  ) : null}
                </td>
                <td className={TD}>
                  {coupon.summary}
                  {coupon.method ? (
                    <span className="block text-slate-300">{coupon.method}</span>
                  ) : null}
                  <span className="block text-slate-300">
                    {coupon.firstPurchaseOnly ? "First purchase only. " : ""}
                    {`${coupon.perCustomer} per customer.`}
                  </span>
                </td>
                <td className={TD}>{coupon.plans}</td>
                <td className={TD}>
                  {coupon.validFrom || coupon.validUntil
                    ? `${coupon.validFrom ? formatDate(coupon.validFrom) : "now"} – ${coupon.validUntil ? formatDate(coupon.validUntil) : "no end"}`
                    : "Always"}
                </td>
                <td className={TD_NUM}>
                  {coupon.maxRedemptions === null
                    ? coupon.redeemed.toLocaleString("en-IN")
                    : `${coupon.redeemed.toLocaleString("en-IN")} of ${coupon.maxRedemptions.toLocaleString("en-IN")}`}
                </td>
                <td className={`${TD} font-mono`}>{coupon.offerId}</td>
                <td className={TD}>
                  {coupon.disabledAt ? `Disabled ${formatDate(coupon.disabledAt)}` : "On"}
                </td>
                <td className={TD}>
                  {coupon.disabledAt ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="disable" />
                      <input type="hidden" name="id" value={coupon.id} />
                      <button
                        type="submit"
                        className="btn-secondary"
                        disabled={pending({ intent: "disable", fields: { id: coupon.id } })}
                      >
                        Disable<span className="sr-only"> {coupon.code}</span>
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>

      <AdminSection
        id="new-coupon"
        title="New coupon"
        lead="Terms cannot be changed afterwards: disable a coupon and make another. Dates are India dates, the last day included."
      >
        {mine("create") && result && "message" in result ? (
          <FormMessage tone={result.ok ? "success" : "error"} message={result.message} />
        ) : null}
        <Form method="post" noValidate className="grid gap-x-4 sm:grid-cols-2">
          <input type="hidden" name="intent" value="create" />
          <Field
            label="Code"
            name="code"
            placeholder="LAUNCH20"
            required
            autoCapitalize="characters"
            defaultValue={kept("code")}
            errors={errors?.code}
            hint="3–32 letters, digits or hyphens; customers may type it in any case."
          />
          <Field
            label="Razorpay offer id"
            name="offerId"
            placeholder="offer_JCTD1XMlUmzF6Z"
            required
            defaultValue={kept("offerId")}
            errors={errors?.offerId}
            hint="Dashboard → Subscriptions → Offers. Its discount, type and cycles must match this form."
          />
          <SelectField
            label="Discount"
            name="kind"
            defaultValue={kept("kind", "percent")}
            errors={errors?.kind}
          >
            <option value="percent">Percent off</option>
            <option value="flat">Rupees off</option>
          </SelectField>
          <Field
            label="Amount"
            name="amount"
            inputMode="decimal"
            required
            defaultValue={kept("amount")}
            errors={errors?.amount}
            hint="20 for 20%, or 150 for ₹150 off (GST included)."
          />
          <SelectField
            label="Discounted payments"
            name="duration"
            defaultValue={kept("duration", "once")}
            errors={errors?.duration}
            hint="Razorpay's offer types: single use, limited number of cycles, forever."
          >
            <option value="once">The first payment only</option>
            <option value="cycles">The first few payments</option>
            <option value="forever">Every payment</option>
          </SelectField>
          <Field
            label="How many payments (first few only)"
            name="cycles"
            inputMode="numeric"
            defaultValue={kept("cycles")}
            errors={errors?.cycles}
          />
          <SelectField
            label="Payment method of the offer"
            name="offerMethod"
            defaultValue={kept("offerMethod", "any")}
            errors={errors?.offerMethod}
          >
            <option value="any">Any method</option>
            <option value="upi">UPI only</option>
            <option value="card">Cards only</option>
          </SelectField>
          <div className="mb-4">
            <ChoiceGroup
              legend="Plans (none ticked: every paid plan)"
              type="checkbox"
              inline
              options={PAID_PLAN_IDS.map((id) => ({
                name: `plan-${id}`,
                value: "on",
                label: planLabel(id),
                checked: false,
              }))}
            />
          </div>
          <Field
            label="First day (optional)"
            name="validFrom"
            type="date"
            defaultValue={kept("validFrom")}
            errors={errors?.validFrom}
          />
          <Field
            label="Last day (optional)"
            name="validUntil"
            type="date"
            defaultValue={kept("validUntil")}
            errors={errors?.validUntil}
          />
          <Field
            label="Uses in all (optional)"
            name="maxRedemptions"
            inputMode="numeric"
            defaultValue={kept("maxRedemptions")}
            errors={errors?.maxRedemptions}
          />
          <Field
            label="Uses per customer"
            name="perCustomer"
            inputMode="numeric"
            defaultValue={kept("perCustomer", "1")}
            errors={errors?.perCustomer}
            hint="Counted per account and per mailbox."
          />
          <div className="mb-4 sm:col-span-2">
            <ChoiceGroup
              legend="Who may use it"
              type="checkbox"
              options={[
                {
                  name: "firstPurchaseOnly",
                  value: "on",
                  label: "Only people who have never paid for Pro",
                  checked: true,
                },
              ]}
            />
          </div>
          <div className="sm:col-span-2">
            <SubmitButton
              pending={pending({ intent: "create" })}
              label="Create coupon"
              pendingLabel="Creating…"
            />
          </div>
        </Form>
      </AdminSection>
    </AdminPage>
  );
}
