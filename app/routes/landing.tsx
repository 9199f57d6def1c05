import { ProductTour } from "~/components/ProductTour";
import { ProductVisual } from "~/components/ProductVisual";
import { CtaLink } from "~/components/TrackedLink";
import { landing } from "~/config/marketing";
import { site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/landing";
import { publicPageHeaders } from "~/lib/cache-control";

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () => pageMeta(landing.headline, landing.lead);

/** A campaign page: one message, one action, and a short tour of the app below it. */
export default function LandingPage() {
  return (
    <>
      <section className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-20 sm:px-6 lg:grid-cols-2">
        <div>
          <h1 className="text-4xl font-bold tracking-tight text-white sm:text-5xl">
            {landing.headline}
          </h1>
          <p className="mt-6 text-lg text-slate-300">{landing.lead}</p>
          <ul className="mt-6 space-y-2 text-slate-200">
            {landing.points.map((point) => (
              <li key={point}>
                <span aria-hidden="true" className="mr-2 text-green-400">
                  ✓
                </span>
                {point}
              </li>
            ))}
          </ul>
          <CtaLink
            to="/download"
            cta="download"
            location="landing"
            className="btn-primary mt-8 px-8 py-3 text-base"
          >
            Download {site.product.name} free
          </CtaLink>
        </div>
        <ProductVisual className="w-full" />
      </section>
      <section aria-labelledby="tour" className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
        <h2 id="tour" className="mb-6 text-center text-2xl font-semibold text-white">
          See {site.product.name} at work
        </h2>
        <ProductTour />
      </section>
    </>
  );
}
