/** The pricing page's questions, each opened in place (counted as `faq_click`). */
import { Link } from "react-router";
import { pricingFaqFor } from "~/config/pricing";
import type { Currency } from "~/lib/money";
import { site } from "~/config/site";
import { track } from "~/lib/analytics/client";

export function PricingFaq({ currency = "INR" }: { currency?: Currency }) {
  return (
    <section aria-labelledby="faq" className="mx-auto mt-20 max-w-3xl">
      <h2 id="faq" className="text-2xl font-bold text-white">
        Questions
      </h2>
      <div className="mt-6 divide-y divide-slate-800 rounded-xl border border-slate-800">
        {pricingFaqFor(currency).map((faq) => (
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
  );
}
