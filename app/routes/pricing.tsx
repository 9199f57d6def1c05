import { useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { JsonLd } from "~/components/JsonLd";
import { comparison, pricingFaq } from "~/config/pricing";
import { type BillingCycle, type Plan, site } from "~/config/site";
import { track } from "~/lib/analytics/client";
import { planEvents } from "~/lib/analytics/plan-events";
import { useAuth } from "~/lib/auth-state";
import { http } from "~/lib/http";
import { pageMeta } from "~/lib/meta";
import { formatInr, rupeesDecimal } from "~/lib/money";
import { freePlan as configuredFreePlan, paidPlanFor, planLabel } from "~/lib/plans";
import type { Route } from "./+types/pricing";
import { env } from "~/.server/env";
import { couponView } from "~/.server/coupons/pricing-view.server";
import { CouponPrice } from "~/components/billing/CouponPrice";
import { publicPageHeaders } from "~/lib/cache-control";
import { ScrollBox } from "~/components/ScrollBox";

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

/**
 * The free trial's length (TRIAL_DAYS; 0: none offered), the same for every visitor; with
 * `?coupon=CODE`, the coupon's prices or why it does not apply (its own rules only: whether this
 * person may use it is checked at checkout), the same for every visitor of that address.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const code = new URL(request.url).searchParams.get("coupon")?.slice(0, 64).trim() ?? "";
  return {
    trialDays: env().TRIAL_DAYS,
    coupon: code ? await couponView(code, null) : null,
  };
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
function yearlySavingPercent(): number {
  const monthlyYear = planFor("monthly").pricePaise * 12;
  return Math.round(((monthlyYear - planFor("yearly").pricePaise) / monthlyYear) * 100);
}

function structuredData(siteUrl: string) {
  return [
    {
      "@context": "https://schema.org",
      "@type": "SoftwareApplication",
      name: site.product.name,
      description: site.product.description,
      applicationCategory: "DeveloperApplication",
      operatingSystem: "macOS, Windows",
      url: `${siteUrl}/pricing`,
      offers: site.plans.map((plan) => ({
        "@type": "Offer",
        name: planLabel(plan),
        price: rupeesDecimal(plan.pricePaise),
        priceCurrency: site.pricing.currency,
        ...(plan.billingCycle
          ? {
              priceSpecification: {
                "@type": "UnitPriceSpecification",
                price: rupeesDecimal(plan.pricePaise),
                priceCurrency: site.pricing.currency,
                valueAddedTaxIncluded: site.pricing.pricesIncludeGst,
                billingDuration: plan.billingCycle === "yearly" ? "P1Y" : "P1M",
              },
            }
          : {}),
      })),
    },
    {
      "@context": "https://schema.org",
      "@type": "FAQPage",
      mainEntity: pricingFaq.map((faq) => ({
        "@type": "Question",
        name: faq.question,
        acceptedAnswer: { "@type": "Answer", text: faq.answer },
      })),
    },
  ];
}

function Check({ value }: { value: string | boolean }) {
  if (typeof value === "string") return <span>{value}</span>;
  return value ? (
    <span className="text-green-400">
      <span aria-hidden="true">✓</span>
      <span className="sr-only">Included</span>
    </span>
  ) : (
    <span className="text-slate-400">
      <span aria-hidden="true">—</span>
      <span className="sr-only">Not included</span>
    </span>
  );
}

/**
 * The signed-in visitor's plan id (null when anonymous or not known yet). The page's HTML is the
 * same for everyone; this is asked for after hydration, only when someone is signed in.
 */
function useCurrentPlan(): string | null {
  const { state } = useAuth();
  const [plan, setPlan] = useState<string | null>(null);
  useEffect(() => {
    if (state.status !== "signed-in") return;
    const controller = new AbortController();
    http("/api/plan", { signal: controller.signal })
      .then((response) =>
        response.ok ? (response.json() as Promise<{ plan: string | null }>) : null,
      )
      .then((body) => setPlan(body?.plan ?? null))
      .catch(() => {});
    return () => controller.abort();
  }, [state.status]);
  return state.status === "signed-in" ? plan : null;
}

function CurrentPlanBadge() {
  return (
    <span className="ml-2 rounded bg-sky-500/15 px-2 py-0.5 text-xs text-sky-200">
      Your current plan
    </span>
  );
}

export default function PricingPage({ matches, loaderData }: Route.ComponentProps) {
  const { trialDays, coupon } = loaderData;
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
  const onPro = current !== null && current !== freePlan.id;
  const signedIn = current !== null;
  // Signed-in visitors go straight to checkout; others sign up first and the plan travels along.
  const signUpFor = (plan: Plan) => {
    const withCoupon = coupon && proCoupon?.ok ? `&coupon=${encodeURIComponent(coupon.code)}` : "";
    const next = plan.billingCycle ? `/checkout?plan=${plan.id}${withCoupon}` : "/account";
    return signedIn ? next : `/auth?view=signup&next=${encodeURIComponent(next)}`;
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      {siteUrl ? <JsonLd data={structuredData(siteUrl)} /> : null}
      <div className="text-center">
        <h1 className="text-4xl font-bold tracking-tight text-white sm:text-5xl">
          Simple pricing in rupees
        </h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">
          Start free on one device. Upgrade when you need the logic views and flashing.{" "}
          {site.pricing.pricesIncludeGst
            ? `All prices include ${site.pricing.gstRatePercent}% GST.`
            : `Prices exclude ${site.pricing.gstRatePercent}% GST.`}
        </p>
        <nav
          aria-label="Billing cycle"
          className="mt-8 inline-flex rounded-lg border border-slate-700 p-1"
        >
          {(["monthly", "yearly"] as const).map((option) => (
            <Link
              key={option}
              to={`?billing=${option}${coupon ? `&coupon=${encodeURIComponent(coupon.code)}` : ""}`}
              replace
              preventScrollReset
              aria-current={cycle === option ? "page" : undefined}
              className={`rounded-md px-4 py-2 text-sm font-semibold ${
                cycle === option ? "bg-green-500 text-slate-950" : "text-slate-300 hover:text-white"
              }`}
            >
              {option === "monthly" ? "Monthly" : `Yearly (save ${yearlySavingPercent()}%)`}
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
            {current === freePlan.id ? <CurrentPlanBadge /> : null}
          </h2>
          <p className="mt-4">
            <span className="text-4xl font-bold text-white">{formatInr(0)}</span>
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
          {current === freePlan.id ? (
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
            <span className="text-4xl font-bold text-white">{formatInr(pro.pricePaise)}</span>
            <span className="text-slate-400">
              {cycle === "yearly" ? " per year" : " per month"}
            </span>
          </p>
          {coupon && proCoupon ? (
            <CouponPrice code={coupon.code} method={coupon.method} view={proCoupon} cycle={cycle} />
          ) : null}
          <p className="mt-1 text-sm text-slate-400">
            {cycle === "yearly"
              ? `${formatInr(Math.round(pro.pricePaise / 12 / 100) * 100)} a month, billed yearly`
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
          {onPro ? (
            <Link to="/account/subscription" className="btn-primary mt-8">
              Manage your subscription
            </Link>
          ) : (
            <Link to={signUpFor(pro)} className="btn-primary mt-8" onClick={() => choose(pro)}>
              {signedIn ? `Upgrade to ${pro.name} ${cycle}` : `Choose ${pro.name} ${cycle}`}
            </Link>
          )}
          {trialDays > 0 ? (
            // Hidden, not removed, once the page knows the visitor is on Pro: nothing below moves.
            <Link
              to="/account/subscription#upgrade"
              className={`link mt-3 self-center text-sm ${onPro ? "invisible" : ""}`}
              aria-hidden={onPro || undefined}
              tabIndex={onPro ? -1 : undefined}
            >
              {`Or try ${pro.name} free for ${trialDays} days, no card`}
            </Link>
          ) : null}
        </section>
      </div>

      <section aria-labelledby="compare" className="mx-auto mt-20 max-w-4xl">
        <h2 id="compare" className="text-2xl font-bold text-white">
          Compare plans
        </h2>
        <ScrollBox
          label="Table comparing the plans"
          className="mt-6 rounded-xl border border-slate-800"
        >
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-900 text-slate-200">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Feature
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {freePlan.name}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {pro.name}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-800 text-slate-300">
              {comparison.map((row) => (
                <tr key={row.feature}>
                  <th scope="row" className="px-4 py-3 font-normal text-slate-200">
                    {row.feature}
                  </th>
                  <td className="px-4 py-3">
                    <Check value={row.free} />
                  </td>
                  <td className="px-4 py-3">
                    <Check value={row.pro} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </section>

      <section aria-labelledby="faq" className="mx-auto mt-20 max-w-3xl">
        <h2 id="faq" className="text-2xl font-bold text-white">
          Questions
        </h2>
        <div className="mt-6 divide-y divide-slate-800 rounded-xl border border-slate-800">
          {pricingFaq.map((faq) => (
            <details
              key={faq.question}
              className="group px-5 py-4"
              onToggle={(event) => {
                if (event.currentTarget.open)
                  track("faq_click", { question: faq.question, section: "pricing" });
              }}
            >
              <summary className="cursor-pointer list-none font-medium text-white marker:hidden">
                <span
                  className="mr-2 inline-block text-green-400 transition-transform group-open:rotate-90"
                  aria-hidden="true"
                >
                  ›
                </span>
                {faq.question}
              </summary>
              <p className="mt-3 text-slate-300">{faq.answer}</p>
            </details>
          ))}
        </div>
        <p className="mt-6 text-sm text-slate-400">
          More questions? Write to{" "}
          <a className="link" href={`mailto:${site.company.supportEmail}`}>
            {site.company.supportEmail}
          </a>
          . Read the{" "}
          <Link className="link" to="/legal/refund">
            refund and cancellation policy
          </Link>
          .
        </p>
      </section>
    </div>
  );
}
