import type { ReactNode } from "react";

/**
 * A box that scrolls sideways when what it holds (a table) is wider than the screen, so that the
 * page never does. `relative` keeps absolutely positioned descendants (visually hidden labels)
 * inside it: without it they reach past the box and widen the whole page on a phone. It is a
 * labelled region in the tab order so that someone on a keyboard can scroll it with the arrow
 * keys when nothing inside it takes focus (WCAG 2.1.1). The label must be unique on the page.
 */
export function ScrollBox({
  label,
  className = "",
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`relative overflow-x-auto ${className}`}
    >
      {children}
    </div>
  );
}
