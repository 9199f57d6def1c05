import { useSyncExternalStore } from "react";

const neverChanges = () => () => {};

/**
 * False in the server's HTML and while React hydrates it, true from the render after. The page is
 * painted before its scripts have run (decision record 0026), so for a moment it is plain HTML in
 * the visitor's hands; controls that need React can say so.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
}
