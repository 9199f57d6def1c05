const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * "2026-08-11" → "11 August 2026". Written out by hand rather than with Intl: the server's and the
 * browser's locale data can differ, and any difference is a hydration mismatch.
 */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  const name = MONTHS[(month ?? 1) - 1];
  if (!year || !name || !day) return isoDate;
  return `${day} ${name} ${year}`;
}

export function formatReadingTime(minutes: number): string {
  return `${minutes} min read`;
}

/** `/blog`, `/blog?tag=uart`, `/blog?tag=uart&page=2`: the listing URL for a page and tag. */
export function blogListUrl(page: number, tag: string | null): string {
  const params = new URLSearchParams();
  if (tag) params.set("tag", tag);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/blog?${query}` : "/blog";
}
