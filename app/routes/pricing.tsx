import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import { pricingPage } from "~/.server/billing/pricing-page.server";
import { CouponPrice } from "~/components/billing/CouponPrice";
import { PlanComparison } from "~/components/pricing/PlanComparison";
import { PricingFaq } from "~/components/pricing/PricingFaq";
import { PricingJsonLd } from "~/components/pricing/PricingJsonLd";
import { useCurrentPlan } from "~/components/pricing/use-current-plan";
import { type BillingCycle, type Plan, site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { publicPageHeaders } from "~/lib/cache-control";
import { pageMeta } from "~/lib/meta";
import { type Currency, currencyName, formatInr, formatMoney } from "~/lib/money";
import { freePlan as configuredFreePlan, paidPlanFor, planPriceIn } from "~/lib/plans";
import { CurrencySwitch } from "~/components/pricing/CurrencySwitch";
import type { Route } from "./+types/pricing";

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

/** The trial's length and a coupon's prices (pricing-page.server.ts): nothing about the visitor. */
export async function loader({ request }: Route.LoaderArgs) {
  return pricingPage(request);
}

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Pricing",
    `${site.product.name} is free on one device. Pro is ${formatInr(planFor("monthly").pricePaise)} a month or ${formatInr(planFor("yearly").pricePaise)} a year, GST included.`,
  );

const planFor = paidPlanFor;
const freePlan = configuredFreePlan();

function cycleOf(value: string | null): BillingCycle {
  return value === "yearly" ? "yearly" : "monthly";
}

/** Yearly saving against twelve monthly payments, in whole percent. */
function yearlySavingPercent(currency: Currency): number {
  const monthlyYear = planPriceIn(planFor("monthly"), currency) * 12;
  return Math.round(((monthlyYear - planPriceIn(planFor("yearly"), currency)) / monthlyYear) * 100);
}

/** A yearly price a month: whole rupees, or cents abroad ($89 a year is $7.42 a month). */
function perMonth(yearly: number, currency: Currency): string {
  const perMonthMinor =
    currency === "INR" ? Math.round(yearly / 12 / 100) * 100 : Math.round(yearly / 12);
  return formatMoney(perMonthMinor, currency);
}

function CurrentPlanBadge() {
  return (
    <span className="ml-2 rounded bg-sky-500/15 px-2 py-0.5 text-xs text-sky-200">
      Your current plan
    </span>
  );
}

export default function PricingPage({ matches, loaderData }: Route.ComponentProps) {
  const { trialDays, coupon, currency, offered, couponInRupeesOnly } = loaderData;
  const abroad = currency !== "INR";
  const inCurrency = abroad ? `&currency=${currency}` : "";
  const [params] = useSearchParams();
  const cycle = cycleOf(params.get("billing"));
  const pro = planFor(cycle);
  const proCoupon = coupon?.plans[pro.id as keyof typeof coupon.plans] ?? null;
  const siteUrl = (matches[0].loaderData as { siteUrl: string } | undefined)?.siteUrl ?? "";

  const referralCode = params.get("ref");
  useEffect(() => {
    track("view_pricing", { billing_cycle: cycle });
    // Arrived through a customer's referral link (/r/CODE): the catalogue's referral_visit.
    if (referralCode && /^[0-9A-Z]{8}$/.test(referralCode))
      track("referral_visit", { referral_code: referralCode });
    // One view per visit to the page, not per switch of the billing cycle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const choose = (plan: Plan) => {
    track("plan_select", planEvents.planSelect(plan, cycle));
  };
  const current = useCurrentPlan();
  const currentId = current?.plan ?? null;
  const onPro = currentId !== null && currentId !== freePlan.id;
  const signedIn = current !== null;
  // On a free trial: Pro for now, and nothing bought; the page offers buying (with its coupon).
  const onTrial = current?.source === "trial";
  // Offered only to whom the account page would start one (issue 54).
  const trialOffered = !onPro && (!signedIn || current.mayStartTrial);
  // Signed-in visitors go straight to checkout; others sign up first and the plan travels along.
  const signUpFor = (plan: Plan) => {
    const withCoupon = coupon && proCoupon?.ok ? `&coupon=${encodeURIComponent(coupon.code)}` : "";
    const next = plan.billingCycle
      ? `/checkout?plan=${plan.id}${withCoupon}${inCurrency}`
      : "/account";
    return signedIn ? next : `/auth?view=signup&next=${encodeURIComponent(next)}`;
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      {siteUrl ? <PricingJsonLd siteUrl={siteUrl} /> : null}
      <div className="text-center">
        <h1 className="text-4xl font-bold tracking-tight text-white sm:text-5xl">
          Simple pricing in {abroad ? currencyName(currency) : "rupees"}
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">
          Start free on one device. Upgrade when you need the logic views and flashing.{" "}
          {abroad
            ? `Prices in ${currencyName(currency)} are for buyers outside India, paid by card. No Indian GST for buyers outside India: your invoice is an export invoice.`
            : site.pricing.pricesIncludeGst
              ? `All prices include ${site.pricing.gstRatePercent}% GST.`
              : `Prices exclude ${site.pricing.gstRatePercent}% GST.`}
        </p>
        <CurrencySwitch shown={currency} offered={offered} cycle={cycle} />
        <nav
          aria-label="Billing cycle"
          className="mt-8 inline-flex rounded-lg border border-slate-700 p-1"
        >
          {(["monthly", "yearly"] as const).map((option) => (
            <Link
              key={option}
              to={`?billing=${option}${coupon ? `&coupon=${encodeURIComponent(coupon.code)}` : ""}${inCurrency}`}
              replace
              preventScrollReset
              aria-current={cycle === option ? "page" : undefined}
              className={`rounded-md px-4 py-2 text-sm font-semibold ${
                cycle === option ? "bg-green-500 text-slate-950" : "text-slate-300 hover:text-white"
              }`}
            >
              {option === "monthly" ? "Monthly" : `Yearly (save ${yearlySavingPercent(currency)}%)`}
            </Link>
          ))}
        </nav>
      </div>

      <div className="mx-auto mt-12 grid max-w-4xl gap-6 md:grid-cols-2">
        <section
          aria-labelledby="plan-free"
          className="flex flex-col rounded-2xl border border-slate-800 bg-slate-900 p-8"
        >
          <h2 id="plan-free" className="text-xl font-semibold text-white">
            {freePlan.name}
            {currentId === freePlan.id ? <CurrentPlanBadge /> : null}
          </h2>
          <p className="mt-4">
            <span className="text-4xl font-bold text-white">{formatMoney(0, currency)}</span>
            <span className="text-slate-400"> forever</span>
          </p>
          <ul className="mt-6 flex-1 space-y-2 text-slate-300">
            {freePlan.features.map((feature) => (
              <li key={feature}>
                <span aria-hidden="true" className="mr-2 text-green-400">
                  ✓
                </span>
                {feature}
              </li>
            ))}
          </ul>
          {currentId === freePlan.id ? (
            <Link to="/download" className="btn-secondary mt-8">
              Download the app
            </Link>
          ) : onPro ? (
            <p className="mt-8 text-sm text-slate-400">Everything in Free is part of your plan.</p>
          ) : (
            <Link
              to={signUpFor(freePlan)}
              className="btn-secondary mt-8"
              onClick={() => choose(freePlan)}
            >
              Start free
            </Link>
          )}
        </section>

        <section
          aria-labelledby="plan-pro"
          className="flex flex-col rounded-2xl border-2 border-green-500 bg-slate-900 p-8"
        >
          <h2 id="plan-pro" className="text-xl font-semibold text-white">
            {pro.name}{" "}
            {onPro ? (
              <CurrentPlanBadge />
            ) : (
              <span className="ml-2 rounded bg-green-500/15 px-2 py-0.5 text-xs text-green-300">
                Most popular
              </span>
            )}
          </h2>
          <p className="mt-4" data-testid="pro-price">
            <span className="text-4xl font-bold text-white">
              {formatMoney(planPriceIn(pro, currency), currency)}
            </span>
            <span className="text-slate-400">
              {cycle === "yearly" ? " per year" : " per month"}
            </span>
          </p>
          {coupon && proCoupon ? (
            <CouponPrice code={coupon.code} method={coupon.method} view={proCoupon} cycle={cycle} />
          ) : null}
          {couponInRupeesOnly ? (
            <p className="mt-2 text-sm text-amber-200">Coupons apply to prices in rupees only.</p>
          ) : null}
          <p className="mt-1 text-sm text-slate-400">
            {cycle === "yearly"
              ? `${perMonth(planPriceIn(pro, currency), currency)} a month, billed yearly`
              : "Billed monthly, cancel any time"}
          </p>
          <ul className="mt-6 flex-1 space-y-2 text-slate-300">
            {pro.features.map((feature) => (
              <li key={feature}>
                <span aria-hidden="true" className="mr-2 text-green-400">
                  ✓
                </span>
                {feature}
              </li>
            ))}
          </ul>
          {onPro && !onTrial ? (
            <Link to="/account/subscription" className="btn-primary mt-8">
              Manage your subscription
            </Link>
          ) : (
            <Link to={signUpFor(pro)} className="btn-primary mt-8" onClick={() => choose(pro)}>
              {signedIn && !onTrial
                ? `Upgrade to ${pro.name} ${cycle}`
                : `Choose ${pro.name} ${cycle}`}
            </Link>
          )}
          {trialDays > 0 ? (
            // Hidden, not removed, once the page knows the visitor may not start one (on Pro, or
            // had one): nothing below moves.
            <Link
              to="/account/subscription#upgrade"
              className={`link mt-3 self-center text-sm ${trialOffered ? "" : "invisible"}`}
              aria-hidden={!trialOffered || undefined}
              tabIndex={trialOffered ? undefined : -1}
            >
              {`Or try ${pro.name} free for ${trialDays} days, no card`}
            </Link>
          ) : null}
        </section>
      </div>

      <PlanComparison free={freePlan.name} pro={pro.name} currency={currency} />

      <PricingFaq currency={currency} />
    </div>
  );
}
