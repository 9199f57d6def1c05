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
