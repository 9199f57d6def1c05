import { createContext, useContext } from "react";

/**
 * The CSP nonce of a streamed document (a signed-in page: `app/entry.server.tsx`), for the inline
 * scripts the page writes itself. Undefined on a buffered page, whose CSP lists the hash of each
 * inline script instead (decision 0022), and in the browser, where it is never needed again.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
