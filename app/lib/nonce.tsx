import { createContext, useContext } from "react";

/** The request's CSP nonce during server rendering; empty in the browser, where it is not needed. */
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
