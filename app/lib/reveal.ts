import { type RefObject, useEffect, useRef, useState } from "react";
import { useHydrated } from "./use-hydrated";

/** Scrolls `element` into view when any of it is outside the window. */
function revealIfHidden(element: HTMLElement | null) {
  if (!element) return;
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.bottom > window.innerHeight) element.scrollIntoView({ block: "center" });
}

/**
 * For what answers a submit (a confirmation, a notice, a step two): when `shown` appears or
 * changes after the page has loaded, the element is scrolled into view if it is outside the
 * window, since on a long page the form may be far from it. What came with the page stays where
 * it is: nothing moves under the visitor's finger while the page hydrates. Null: nothing shown.
 */
export function useRevealWhenShown<T extends HTMLElement>(
  shown: string | null,
): RefObject<T | null> {
  const hydrated = useHydrated();
  const element = useRef<T>(null);
  const [cameWithPage] = useState(() => !hydrated);
  const revealed = useRef(cameWithPage ? shown : null);
  useEffect(() => {
    if (!shown || shown === revealed.current) return;
    revealed.current = shown;
    revealIfHidden(element.current);
  }, [shown]);
  return element;
}
