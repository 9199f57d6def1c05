import { formatReadingTime } from "~/lib/format";
import { formatDate } from "~/lib/dates";

/** Date, reading time and (on the post page) author of a post, on one line. */
export function PostMeta({
  date,
  readingMinutes,
  author,
}: {
  date: string;
  readingMinutes: number;
  author?: string;
}) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-300">
      {author ? (
        <>
          <span>By {author}</span>
          <span aria-hidden="true">·</span>
        </>
      ) : null}
      <time dateTime={date}>{formatDate(date, "long")}</time>
      <span aria-hidden="true">·</span>
      <span>{formatReadingTime(readingMinutes)}</span>
    </p>
  );
}
