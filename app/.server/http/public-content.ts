/**
 * A number that changes whenever public pages may change in this process (a release published,
 * paused or pulled): the shared page cache (server/public-cache.ts) treats what it stored under an
 * older number as stale. Another instance's change shows when the entry's short max-age runs out.
 */
let generation = 0;

export function publicContentGeneration(): number {
  return generation;
}

export function publicContentChanged(): void {
  generation += 1;
}
