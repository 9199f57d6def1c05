import { CHOICE_IN_COOKIE } from "./analytics/consent";

/** Where the pointer last was, written by HEAD_SCRIPT from the first moment of the page. */
export const POINTER_GLOBAL = "__pinoutPointer";

/**
 * The one inline script in every page's head, run before the first paint (a constant, so its CSP
 * hash is constant too):
 * - with a cookie choice already made, the consent banner (always in the server's HTML, so a
 *   shared page is the same for everyone) is hidden before it is ever seen;
 * - it notes where the pointer is from the start, so that nothing appearing later (the version
 *   notice) appears under it, even when the pointer moved before the page's scripts ran.
 */
export const HEAD_SCRIPT =
  "(function(d,w){" +
  `if(${CHOICE_IN_COOKIE}.test(d.cookie))d.documentElement.setAttribute("data-consent-chosen","");` +
  `function at(e){w.${POINTER_GLOBAL}={x:e.clientX,y:e.clientY}}` +
  'w.addEventListener("pointermove",at,{passive:true,capture:true});' +
  'w.addEventListener("pointerdown",at,{passive:true,capture:true})' +
  "})(document,window)";
