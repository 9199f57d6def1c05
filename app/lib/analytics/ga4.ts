import type { Sink } from "./client";
import { analyticsLocation } from "./safe-location";

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

type Gtag = (...args: unknown[]) => void;

/** Where the page is, as the browser would tell GA4 (read at each event: navigations are client-side). */
export interface PageAddress {
  href(): string;
  referrer(): string;
}

/**
 * What GA4 may be told of where an event happened: the same sanitised address the first-party
 * collector stores, never `location.href` (gtag sends `dl=location.href` with every hit unless
 * `page_location` is given, and the referrer as `dr`). Null on the pages the collector does not
 * report (admin, the desktop handoff, the reset form): nothing is sent from them.
 */
export function ga4Address(
  address: PageAddress,
): { page_location: string; page_referrer: string } | null {
  const page = analyticsLocation(address.href());
  if (!page) return null;
  let referrer = "";
  const from = address.referrer();
  if (from) {
    try {
      const url = new URL(from);
      // Our own pages as the collector records them; another site by its origin only.
      referrer =
        url.origin === new URL(page.location).origin
          ? (analyticsLocation(from)?.location ?? url.origin)
          : url.origin;
    } catch {
      referrer = "";
    }
  }
  return { page_location: page.location, page_referrer: referrer };
}

/** The GA4 sink: every event carries the sanitised address, and none leaves an unreported page. */
export function createGa4Sink(gtag: () => Gtag | undefined, address: PageAddress): Sink {
  return (name, params) => {
    const where = ga4Address(address);
    if (!where) return;
    gtag()?.("event", name, { ...params, ...where });
  };
}

const browserAddress: PageAddress = {
  href: () => window.location.href,
  referrer: () => document.referrer,
};

/**
 * Google Analytics 4, the only third-party script: loaded only when the operator configured a
 * measurement id and the visitor consented. Our page_view events are forwarded, so GA's own
 * automatic page views are off.
 */
export function loadGa4(measurementId: string): Sink {
  if (!window.gtag) {
    window.dataLayer = window.dataLayer ?? [];
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself, not an array.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
    window.gtag("js", new Date());
    window.gtag("config", measurementId, {
      send_page_view: false,
      anonymize_ip: true,
      // The default for hits without their own (none of ours): never the full address.
      ...(ga4Address(browserAddress) ?? {
        page_location: window.location.origin,
        page_referrer: "",
      }),
    });
    const script = document.createElement("script");
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
    document.head.append(script);
  }
  return createGa4Sink(() => window.gtag, browserAddress);
}
