import type { TocEntry } from "virtual:content";

/** Links to the h2 and h3 sections of a page; h3 entries are indented under their h2. */
export function TableOfContents({ entries }: { entries: readonly TocEntry[] }) {
  return (
    <nav
      aria-labelledby="toc-heading"
      className="mb-10 rounded-lg border border-slate-800 bg-slate-900/60 p-5"
    >
      <h2 id="toc-heading" className="text-sm font-semibold tracking-wide text-white uppercase">
        On this page
      </h2>
      <ol className="mt-3 space-y-1.5 text-sm">
        {entries.map((entry) => (
          <li key={entry.id} className={entry.depth === 3 ? "pl-4" : undefined}>
            <a href={`#${entry.id}`} className="link">
              {entry.text}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
