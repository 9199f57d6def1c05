import { Form } from "react-router";
import { z } from "zod";
import { requireAdmin } from "~/.server/auth/session";
import { done, formAction, refuseField } from "~/.server/forms/action.server";
import { parseRate, rateText } from "~/.server/invoices/engine.server";
import {
  exportsWaitingForRate,
  recentReferenceRates,
} from "~/.server/invoices/reference-rates.server";
import { enterReferenceRate } from "~/.server/invoices/waiting-exports.server";
import { AdminPage, AdminSection, AdminTable, TD, TR } from "~/components/admin/AdminUi";
import { Field, FormMessage, SelectField } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { useFormPending } from "~/components/use-form-pending";
import { formatDate, formatDateTime } from "~/lib/dates";
import { istDay } from "~/lib/india-time";
import { FOREIGN_CURRENCIES, formatMoney } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/exchange-rates";

export const meta: Route.MetaFunction = () =>
  pageMeta("Exchange rates", "RBI reference rates for export invoices Razorpay could not value.");

/**
 * Issue 56, the rate rule's fallback (decision 0061): payments abroad that Razorpay reported no
 * rupee value for wait here for the RBI reference rate of their day; entering it issues them.
 */
export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const [waiting, rates] = await Promise.all([exportsWaitingForRate(), recentReferenceRates()]);
  return {
    waiting: waiting.map((payment) => ({
      paymentId: payment.paymentId,
      amount: formatMoney(payment.amount, payment.currency),
      currency: payment.currency,
      day: payment.day,
      paidAt: payment.paidAt.toISOString(),
    })),
    rates: rates.map((rate) => ({
      currency: rate.currency,
      day: rate.day,
      rate: rateText(rate.rateE4),
      enteredBy: rate.enteredBy,
      enteredAt: rate.enteredAt.toISOString(),
    })),
  };
}

const schema = z.object({
  intent: z.literal("enter-rate"),
  currency: z.enum(FOREIGN_CURRENCIES, { error: "Choose the currency." }),
  day: z.iso.date({ error: "Enter the day as YYYY-MM-DD." }),
  rate: z.string().trim().min(1, { error: "Enter the rate in rupees, e.g. 84.5025." }).max(12),
});

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async (input, session) => {
      const rateE4 = parseRate(input.rate);
      if (rateE4 === null)
        return refuseField(
          input.intent,
          "rate",
          "Enter the rate in rupees per unit, with at most four decimals, e.g. 84.5025.",
        );
      if (input.day > istDay(new Date()))
        return refuseField(input.intent, "day", "A reference rate is for a day that has come.");
      const { issued } = await enterReferenceRate(session, {
        currency: input.currency,
        day: input.day,
        rateE4,
      });
      return done(
        input.intent,
        `Saved ₹${rateText(rateE4)} per ${input.currency} for ${formatDate(input.day)}. ${
          issued.length === 0
            ? "No export was waiting for it."
            : `Issued ${issued.join(", ")}: the customers see them under Invoices.`
        }`,
      );
    },
    { role: "admin", invalidMessage: "Enter the currency, the day and the rate." },
  );
}

export default function ExchangeRatesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { waiting, rates } = loaderData;
  const saving = useFormPending({ intent: "enter-rate" });
  const errors = actionData && "errors" in actionData ? (actionData.errors ?? {}) : {};
  const first = waiting[0];
  return (
    <AdminPage>
      <PageHeader
        title="Exchange rates"
        lead="An export invoice is valued at Razorpay's conversion of its payment. Where Razorpay reported none, the invoice waits for the RBI reference rate of the day it was paid (CGST Rules r. 34(2)): enter it here and the waiting invoices are issued, dated when they were paid."
      />
      {actionData?.message ? (
        <FormMessage tone={actionData.ok ? "success" : "error"} message={actionData.message} />
      ) : null}
      <AdminSection id="waiting" title="Waiting for a rate">
        {waiting.length === 0 ? (
          <p className="text-slate-300">No export invoice is waiting for a rate.</p>
        ) : (
          <AdminTable
            caption="Payments abroad without a rupee value"
            columns={["Paid", "Payment", "Amount", "Rate needed"]}
          >
            {waiting.map((payment) => (
              <tr key={payment.paymentId} className={TR}>
                <td className={`${TD} whitespace-nowrap`}>{formatDateTime(payment.paidAt)}</td>
                <td className={`${TD} font-mono text-xs`}>{payment.paymentId}</td>
                <td className={TD}>{payment.amount}</td>
                <td className={TD}>{`${payment.currency} on ${formatDate(payment.day)}`}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
      <AdminSection id="enter" title="Enter a reference rate">
        <Form method="post" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="enter-rate" />
          <SelectField
            label="Currency"
            name="currency"
            defaultValue={first?.currency ?? "USD"}
            errors={errors.currency}
          >
            {FOREIGN_CURRENCIES.map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </SelectField>
          <Field
            label="Day (India)"
            name="day"
            type="date"
            defaultValue={first?.day ?? ""}
            errors={errors.day}
          />
          <Field
            label="Rupees per unit"
            name="rate"
            inputMode="decimal"
            hint="The RBI reference rate of that day, e.g. 84.5025"
            errors={errors.rate}
          />
          <button type="submit" className="btn-primary mb-6" disabled={saving}>
            Save rate
          </button>
        </Form>
      </AdminSection>
      <AdminSection id="rates" title="Rates entered">
        {rates.length === 0 ? (
          <p className="text-slate-300">No rate entered yet.</p>
        ) : (
          <AdminTable
            caption="Reference rates, newest day first"
            columns={["Day", "Currency", "Rate", "Entered"]}
          >
            {rates.map((rate) => (
              <tr key={`${rate.currency}-${rate.day}`} className={TR}>
                <td className={TD}>{formatDate(rate.day)}</td>
                <td className={TD}>{rate.currency}</td>
                <td className={TD}>{`₹${rate.rate}`}</td>
                <td className={TD}>{`${rate.enteredBy}, ${formatDateTime(rate.enteredAt)}`}</td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>
    </AdminPage>
  );
}
