/**
 * Paging of the admin lists (users, subscriptions, a month's invoices): one window rule, one
 * `?page=` reading and one way to link to another page that keeps the list's filters.
 */

export interface PageWindow {
  page: number;
  pageCount: number;
  offset: number;
}

/** The page actually shown: past the last page shows the last one, and there is always a page 1. */
export function pageWindow(requested: number, total: number, perPage: number): PageWindow {
  const pageCount = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(Math.max(1, Math.floor(requested)), pageCount);
  return { page, pageCount, offset: (page - 1) * perPage };
}

/** `?page=` as a whole number from 1; anything else is page 1. */
export function requestedPage(searchParams: URLSearchParams): number {
  const value = Number(searchParams.get("page") ?? "1");
  return Number.isSafeInteger(value) && value >= 1 ? value : 1;
}

/**
 * The address of another page of a list: its filters as given (empty ones left out), and
 * `page` only past the first, so page 1 has one address.
 */
export function pageHref(path: string, filters: Record<string, string>, page: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
