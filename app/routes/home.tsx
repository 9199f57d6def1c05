import { Link } from "react-router";
import { LogoMark } from "~/components/Logo";
import { site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () =>
  pageMeta(`${site.product.name}: ${site.product.tagline}`, site.product.description);

export default function HomePage() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-20 text-center sm:px-6">
      <LogoMark className="mx-auto h-16 w-16" />
      <h1 className="mt-6 text-4xl font-bold tracking-tight text-white sm:text-6xl">
        {site.product.name}
      </h1>
      <p className="mt-4 text-xl text-green-400">{site.product.tagline}</p>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-300">{site.product.description}</p>
      <div className="mt-10 flex flex-wrap justify-center gap-4">
        <Link to="/download" className="btn-primary px-6 py-3 text-base">
          Download
        </Link>
        <Link to="/pricing" className="btn-secondary px-6 py-3 text-base">
          See pricing
        </Link>
      </div>
    </section>
  );
}
