import { type RefObject, useLayoutEffect, useState } from "react";
import { POINTER_GLOBAL } from "./head-script";

declare global {
  interface Window {
    [POINTER_GLOBAL]?: { x: number; y: number };
  }
}

/**
 * Where the pointer last was (the mouse's position, or where a finger last touched), noted by the
 * page's head script from before the first paint. Read by elements that appear after load, so
 * that none appears under a visitor's pointer and takes the click meant for the page.
 */
function lastPointer(): { x: number; y: number } | null {
  return typeof window === "undefined" ? null : (window[POINTER_GLOBAL] ?? null);
}

/** Whether the pointer is over `rect`, or within `margin` pixels of it. */
export function pointerNear(rect: DOMRect, margin = 24): boolean {
  const last = lastPointer();
  if (!last) return false;
  return (
    last.x >= rect.left - margin &&
    last.x <= rect.right + margin &&
    last.y >= rect.top - margin &&
    last.y <= rect.bottom + margin
  );
}

/**
 * For an element that appears after load (rendered hidden while `wanted`): true once the pointer
 * is clear of where it will be. Until then it stays hidden (and takes no clicks), and it is
 * checked again whenever the pointer moves.
 */
export function useClearOfPointer(ref: RefObject<HTMLElement | null>, wanted: boolean): boolean {
  const [clear, setClear] = useState(false);
  useLayoutEffect(() => {
    if (!wanted) return;
    const check = () => {
      const element = ref.current;
      if (!element || pointerNear(element.getBoundingClientRect())) return false;
      setClear(true);
      return true;
    };
    if (check()) return () => setClear(false);
    const onMove = () => {
      if (check()) stop();
    };
    // A pointer that rests does not move: look again now and then too.
    const timer = window.setInterval(onMove, 500);
    const stop = () => {
      window.clearInterval(timer);
      window.removeEventListener("pointermove", onMove);
    };
    window.addEventListener("pointermove", onMove, { passive: true });
    return () => {
      stop();
      setClear(false);
    };
  }, [ref, wanted]);
  return wanted && clear;
}
