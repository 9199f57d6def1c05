/**
 * The visitor's analytics choice, kept in the strictly necessary cookie `consent` for a year.
 * Nothing but that cookie is set, and nothing is sent, before the visitor says yes.
 */
export type ConsentChoice = "granted" | "denied";
export const CONSENT_COOKIE = "consent";
const ONE_YEAR = 60 * 60 * 24 * 365;

export function readConsent(cookieHeader: string): ConsentChoice | null {
  for (const part of cookieHeader.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === CONSENT_COOKIE && (value === "granted" || value === "denied")) return value;
  }
  return null;
}

/** The cookie as the browser writes it, and as the no-JavaScript form post sets it. */
export function consentCookie(choice: ConsentChoice, secure: boolean): string {
  return `${CONSENT_COOKIE}=${choice}; Path=/; Max-Age=${ONE_YEAR}; SameSite=Lax${secure ? "; Secure" : ""}`;
}

export function writeConsent(choice: ConsentChoice): void {
  document.cookie = consentCookie(choice, window.location.protocol === "https:");
}

/** True when the document's cookies hold a choice (the head script's test, in JavaScript). */
export const CHOICE_IN_COOKIE = `/(?:^|;\\s*)${CONSENT_COOKIE}=(?:granted|denied)(?:;|$)/`;

const listeners = new Set<() => void>();

/** For useSyncExternalStore: the choice in the cookie, re-read whenever it is written here. */
export const consentStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot(): ConsentChoice | null {
    return readConsent(document.cookie);
  },
  /** On the server the cookie is not looked at: public HTML is the same for everyone. */
  serverSnapshot(): undefined {
    return undefined;
  },
  set(choice: ConsentChoice) {
    writeConsent(choice);
    listeners.forEach((listener) => listener());
  },
};
