import { Link } from "react-router";
import { blogListUrl } from "~/lib/format";

/** A post's tags, each linking to the posts that share it. */
export function TagLinks({ tags, label = "Tags" }: { tags: readonly string[]; label?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            to={blogListUrl(1, tag)}
            className="inline-block rounded-full border border-slate-700 px-2.5 py-0.5 text-xs font-medium text-green-300 underline-offset-2 hover:border-green-400 hover:underline"
          >
            #{tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
