import { useEffect, useRef } from "react";
import { Link, NavLink } from "react-router";

export interface NavSection {
  to: string;
  label: string;
  end: boolean;
}

/**
 * The section menu of the account and admin areas: a column on wide screens; on phones one row
 * that scrolls sideways, never wraps or clips a label, fades at the edge to show there is more,
 * and keeps the current section in view. A section whose page is on its way is marked `pending`
 * (React Router's own class for it, which a NavLink given a className function no longer adds).
 */
export function SectionNav({
  label,
  sections,
  extra,
  className = "",
}: {
  label: string;
  sections: readonly NavSection[];
  extra?: { to: string; label: string };
  className?: string;
}) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const current = list.current?.querySelector('[aria-current="page"]');
    // Only the row scrolls: block "nearest" keeps the page where it is.
    current?.scrollIntoView({ block: "nearest", inline: "center" });
  });
  const item = "block whitespace-nowrap rounded-md px-3 py-2 text-sm";
  return (
    <nav aria-label={label} className={className}>
      <ul
        ref={list}
        className="flex gap-1 overflow-x-auto pr-8 [mask-image:linear-gradient(to_right,black_calc(100%-2rem),transparent)] md:flex-col md:overflow-visible md:pr-0 md:[mask-image:none]"
      >
        {sections.map((section) => (
          <li key={section.to} className="shrink-0">
            <NavLink
              to={section.to}
              end={section.end}
              className={({ isActive, isPending }) =>
                `${item} ${isActive ? "bg-slate-800 text-green-400" : "text-slate-300 hover:bg-slate-800"}${isPending ? " pending cursor-progress" : ""}`
              }
            >
              {section.label}
            </NavLink>
          </li>
        ))}
        {extra ? (
          <li className="shrink-0">
            <Link to={extra.to} className={`${item} text-slate-400 hover:bg-slate-800`}>
              {extra.label}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}
