/** 52428800 → "50 MB" (decimal units, as macOS and download pages show them). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "5 min read" under a post's title. */
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

/**
 * A count with its noun, in Indian digit grouping: "1 download", "1,20,000 downloads". The noun's
 * plural is `${one}s` unless given.
 */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-IN")} ${count === 1 ? one : many}`;
}
