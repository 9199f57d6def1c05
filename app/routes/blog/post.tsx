import { data } from "react-router";
import { PageHeader } from "~/components/PageHeader";
import { site } from "~/config/site";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/post";

/** The one post that exists before the blog is built: the spec's fixed welcome post. */
const WELCOME_SLUG = `welcome-to-${site.product.name.toLowerCase()}-blog`;

export function loader({ params }: Route.LoaderArgs) {
  if (params.slug !== WELCOME_SLUG) throw data(null, { status: 404 });
  return { title: `Welcome to the ${site.product.name} blog` };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.title ?? "Blog", `News and notes from the ${site.product.name} team.`);

export default function BlogPostPage({ loaderData }: Route.ComponentProps) {
  return (
    <article className="prose-page">
      <PageHeader title={loaderData.title} />
      <p className="text-slate-400">This post is not available yet.</p>
    </article>
  );
}
