/** What a signed-in browser sees of a page, as text: for integration tests' assertions. */
import { getWithCookies } from "./auth";
import type { RunningTestServer } from "./server";

/** The visible text of a page: tags dropped, entities decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/**
 * The visible text of one admin section (`<section aria-labelledby="payments">`): a count of a
 * payment or an event in its own table, not also on the customer's timeline.
 */
export function sectionText(html: string, id: string): string {
  const section = new RegExp(`<section aria-labelledby="${id}"[\\s\\S]*?</section>`).exec(html);
  if (!section) throw new Error(`no section "${id}" on the page`);
  return textOf(section[0]);
}

/** The visible text of a page as the signed-in browser (`cookie`) gets it. */
export async function pageText(server: RunningTestServer, path: string, cookie: string) {
  return textOf(await (await getWithCookies(server, path, cookie)).text());
}
