import { Link } from "react-router";
import { formatDateTime } from "~/lib/dates";

export interface ThreadEntry {
  id: string;
  side: "customer" | "team";
  authorName: string;
  internal: boolean;
  body: string;
  createdAt: string;
}

/**
 * A ticket's conversation, oldest first. The team's internal notes (only on the team's page)
 * stand out so nobody mistakes one for what the customer saw.
 */
export function Thread({
  messages,
  viewer,
}: {
  messages: ThreadEntry[];
  viewer: "customer" | "team";
}) {
  return (
    <ol className="space-y-4" aria-label="Conversation">
      {messages.map((message) => {
        const own = message.side === viewer;
        const who = message.internal
          ? `${message.authorName} · internal note`
          : viewer === "customer" && own
            ? "You"
            : message.authorName;
        return (
          <li
            key={message.id}
            className={`rounded-xl border p-4 ${
              message.internal
                ? "border-amber-500/40 bg-amber-500/10"
                : message.side === "team"
                  ? "border-green-500/30 bg-slate-900"
                  : "border-slate-700 bg-slate-900"
            }`}
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-4 text-sm">
              <span className="font-medium text-white">{who}</span>
              <time dateTime={message.createdAt} className="text-slate-400">
                {formatDateTime(message.createdAt)}
              </time>
            </p>
            <p className="mt-2 whitespace-pre-wrap break-words text-slate-200">{message.body}</p>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * Where a paged thread is (the server sends one page: thread.server's THREAD_PAGE_SIZE), with
 * links to the older and newer pages. Nothing when the whole thread fits on one page.
 */
export function ThreadPager({
  path,
  page,
  pages,
  total,
  pageSize,
}: {
  path: string;
  page: number;
  pages: number;
  total: number;
  pageSize: number;
}) {
  if (pages <= 1) return null;
  const newest = total - (page - 1) * pageSize;
  const oldest = Math.max(1, newest - pageSize + 1);
  return (
    <nav
      aria-label="Older and newer messages"
      className="flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm text-slate-300"
    >
      <p>
        {page === 1
          ? `Showing the newest ${newest - oldest + 1} of ${total} messages.`
          : `Showing messages ${oldest} to ${newest} of ${total}.`}
      </p>
      {page < pages ? (
        <Link to={`${path}?page=${page + 1}`} className="link">
          Older messages
        </Link>
      ) : null}
      {page > 1 ? (
        <Link to={page === 2 ? path : `${path}?page=${page - 1}`} className="link">
          Newer messages
        </Link>
      ) : null}
    </nav>
  );
}
