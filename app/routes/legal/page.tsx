import { Link, data } from "react-router";
import { getLegalPage } from "~/.server/content/legal.server";
import { Prose } from "~/components/content/Prose";
import { formatDate } from "~/lib/dates";
import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import contentStyles from "~/styles/content.css?url";
import type { Route } from "./+types/page";
import { CookieSettings } from "~/components/CookieSettings";
import { publicPageHeaders } from "~/lib/cache-control";

export const links: Route.LinksFunction = () => [
  // After the site stylesheet, ahead of the scripts (decision 0026).
  { rel: "stylesheet", href: contentStyles, precedence: "content" },
];

export function loader({ params }: Route.LoaderArgs) {
  const page = getLegalPage(params.page);
  if (!page) throw data(null, { status: 404 });
  return {
    slug: page.slug,
    title: page.title,
    description: page.description,
    updated: page.updated,
    html: page.html,
  };
}

/** The same for every visitor: cached and shared (app/lib/cache-control.ts). */
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData ? pageMeta(loaderData.title, loaderData.description) : [];

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  const page = loaderData;
  return (
    <article className="prose-page">
      <p className="mb-6 text-sm">
        <Link to="/legal" className="link">
          ← All legal pages
        </Link>
      </p>
      <PageHeader title={page.title} lead={page.description}>
        <p className="mt-3 text-sm text-slate-300">
          Last updated <time dateTime={page.updated}>{formatDate(page.updated, "long")}</time>
        </p>
      </PageHeader>
      <Prose html={page.html} />
      {page.slug === "cookies" ? (
        // The consent controls the policy text refers to ("Cookie settings").
        <div id="cookie-settings" className="mt-10">
          <CookieSettings />
        </div>
      ) : null}
    </article>
  );
}
