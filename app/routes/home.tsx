import { FeatureIcon } from "~/components/FeatureIcon";
import { ProductVisual } from "~/components/ProductVisual";
import { CtaLink } from "~/components/TrackedLink";
import { features, steps, useCases } from "~/config/marketing";
import { site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import { detectPlatform } from "~/lib/platform";
import type { Route } from "./+types/home";
import { publicPlatformPageHeaders } from "~/lib/cache-control";

export const meta: Route.MetaFunction = () =>
  pageMeta(`${site.product.name}: ${site.product.tagline}`, site.product.description);

/** The same for every visitor on one platform: cached and shared per platform. */
export const headers = publicPlatformPageHeaders;

/** Only the visitor's platform, for the label of the Download button: no database, no session. */
export function loader({ request }: Route.LoaderArgs) {
  return { platform: detectPlatform(request.headers) };
}

const DOWNLOAD_LABEL = {
  mac: "Download for Mac",
  windows: "Download for Windows",
  other: "Download",
} as const;

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { product } = site;
  return (
    <>
      <section className="mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-16 sm:px-6 lg:grid-cols-2 lg:pt-24">
        <div>
          <p className="text-sm font-semibold uppercase tracking-wider text-green-400">
            For embedded developers
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-white sm:text-5xl">
            {product.name}: {product.tagline}
          </h1>
          <p className="mt-6 text-lg text-slate-300">{product.description}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <CtaLink
              to="/download"
              cta="download"
              location="home_hero"
              className="btn-primary px-6 py-3 text-base"
            >
              {DOWNLOAD_LABEL[loaderData.platform]}
            </CtaLink>
            <CtaLink
              to="/pricing"
              cta="see_pricing"
              location="home_hero"
              className="btn-secondary px-6 py-3 text-base"
            >
              See pricing
            </CtaLink>
          </div>
          <p className="mt-4 text-sm text-slate-400">Free on one device. Mac and Windows.</p>
        </div>
        <ProductVisual className="w-full drop-shadow-2xl" />
      </section>

      <section aria-labelledby="features" className="border-t border-slate-800 bg-slate-900/40">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <h2 id="features" className="text-3xl font-bold text-white">
            Everything on your bench, in one window
          </h2>
          <div className="mt-10 grid gap-8 sm:grid-cols-2">
            {features.map((feature) => (
              <div key={feature.title}>
                <FeatureIcon name={feature.icon} />
                <h3 className="mt-4 text-lg font-semibold text-white">{feature.title}</h3>
                <p className="mt-2 text-slate-300">{feature.body}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="how" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <h2 id="how" className="text-3xl font-bold text-white">
          How it works
        </h2>
        <ol className="mt-10 grid gap-8 md:grid-cols-3">
          {steps.map((step, index) => (
            <li key={step.title} className="rounded-xl border border-slate-800 p-6">
              <span className="text-sm font-semibold text-green-400">Step {index + 1}</span>
              <h3 className="mt-2 text-lg font-semibold text-white">{step.title}</h3>
              <p className="mt-2 text-slate-300">{step.body}</p>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="voices" className="border-t border-slate-800 bg-slate-900/40">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <h2 id="voices" className="text-3xl font-bold text-white">
            Who uses it
          </h2>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {useCases.map((item) => (
              <figure
                key={item.who}
                className="rounded-xl border border-slate-800 bg-slate-950 p-6"
              >
                <blockquote className="text-slate-200">“{item.quote}”</blockquote>
                <figcaption className="mt-4 text-sm text-slate-400">{item.who}</figcaption>
              </figure>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="start" className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6">
        <h2 id="start" className="text-3xl font-bold text-white">
          Start with the free plan today
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-slate-300">
          Download {product.name}, sign in, and your board is on screen in a minute. Upgrade only
          when you need the logic views and flashing.
        </p>
        <div className="mt-8 flex justify-center gap-3">
          <CtaLink
            to="/download"
            cta="download"
            location="home_footer"
            className="btn-primary px-6 py-3 text-base"
          >
            Download
          </CtaLink>
          <CtaLink
            to="/pricing"
            cta="see_pricing"
            location="home_footer"
            className="btn-secondary px-6 py-3 text-base"
          >
            See pricing
          </CtaLink>
        </div>
      </section>
    </>
  );
}
