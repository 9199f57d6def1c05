/**
 * Starts a page's JavaScript after its first paint (decision record 0026). React Router puts a
 * modulepreload link in the head for every module of the page and an inline module script that
 * imports them; the browser fetches all of that while it is still parsing, so on a slow link the
 * scripts compete with the first paint, and Lighthouse counts every request started before the
 * largest paint as possibly holding it back.
 *
 * The server-rendered page is complete without JavaScript, so the rewrite below holds the module
 * script in an inert `<script type="text/x-held-module">` and removes the modulepreload links; a
 * small constant script then adds the links and runs the held module once the first frame is
 * painted. The held script keeps its exact text, so its CSP hash is the one the server listed.
 */

const MODULEPRELOAD = /<link rel="modulepreload"(?: fetchPriority="low")? href="([^"]+)"\/>/g;
const MODULE_SCRIPT = /<script type="module" async="">([\s\S]*?)<\/script>/;
export const HELD_MODULE_ID = "held-hydration";

/**
 * Runs the held module once the first contentful paint is on screen (the Paint Timing entry is
 * queued after the frame is presented, which a requestAnimationFrame callback is not). Browsers
 * without paint entries run it after the first frame; a hidden tab paints nothing and runs it at
 * once; and whatever happens, it runs within 3 s.
 */
export const RELEASE_SCRIPT =
  "(function(){" +
  `var held=document.getElementById("${HELD_MODULE_ID}");if(!held)return;` +
  "var done=false;" +
  "function run(){if(done)return;done=true;" +
  'var hrefs=(held.getAttribute("data-preload")||"").split(" ");' +
  "var links=document.createDocumentFragment();" +
  "for(var i=0;i<hrefs.length;i++){if(!hrefs[i])continue;" +
  'var link=document.createElement("link");link.rel="modulepreload";link.href=hrefs[i];' +
  "links.appendChild(link)}" +
  "document.head.appendChild(links);" +
  'var script=document.createElement("script");script.type="module";' +
  "script.textContent=held.textContent;held.replaceWith(script)}" +
  "function soon(){setTimeout(run,0)}" +
  'if(document.visibilityState!=="visible")return run();' +
  "setTimeout(run,3000);" +
  "var types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];" +
  'if(types.indexOf("paint")<0)return requestAnimationFrame(soon);' +
  "new PerformanceObserver(function(list,observer){" +
  'if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();soon()}' +
  '}).observe({type:"paint",buffered:true})' +
  "})()";

/**
 * The document with its modules held until after the first paint; unchanged when React Router
 * wrote no module script (a page without hydration). The held script's text must stay byte for
 * byte what React Router wrote: the caller hashes it for the CSP before this rewrite.
 */
export function deferHydration(html: string): string {
  const module = MODULE_SCRIPT.exec(html);
  if (!module) return html;
  const preloads = [...html.matchAll(MODULEPRELOAD)].map((match) => match[1] ?? "");
  const held =
    `<script type="text/x-held-module" id="${HELD_MODULE_ID}" data-preload="${preloads.join(" ")}">` +
    `${module[1] ?? ""}</script><script>${RELEASE_SCRIPT}</script>`;
  return html.replace(MODULE_SCRIPT, () => held).replace(MODULEPRELOAD, "");
}
