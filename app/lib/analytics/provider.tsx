import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from "react";
import { useLocation, useNavigationType } from "react-router";
import { setAnalyticsSink, type Sink, track } from "./client";
import { createCollector, forgetClientId } from "./collector";
import { type ConsentChoice, consentStore } from "./consent";
import { loadGa4 } from "./ga4";
import { analyticsLocation } from "./safe-location";

interface ConsentContextValue {
  /** null: not asked yet (or not known before hydration). */
  choice: ConsentChoice | null;
  ready: boolean;
  grant(): void;
  deny(): void;
}

const ConsentContext = createContext<ConsentContextValue>({
  choice: null,
  ready: false,
  grant() {},
  deny() {},
});

export function useConsent(): ConsentContextValue {
  return useContext(ConsentContext);
}

/** Sends page_view and navigation for every route change, through whatever sink is active. */
function usePageViews(active: boolean) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (!active) return;
    const path = location.pathname;
    const safe = analyticsLocation(window.location.href);
    if (safe)
      track("page_view", {
        page_title: document.title || path,
        page_location: safe.location,
        page_path: safe.path,
      });
    if (previous.current !== null && previous.current !== path) {
      track("navigation", {
        from_page: previous.current,
        to_page: path,
        method: navigationType === "POP" ? "back_forward" : "link",
      });
    }
    previous.current = path;
  }, [active, location.pathname, navigationType]);
}

export function AnalyticsProvider({
  gaMeasurementId,
  children,
}: {
  gaMeasurementId: string | null;
  children: ReactNode;
}) {
  // undefined until hydrated: the cookie is only read in the browser, so the banner never flashes.
  const stored = useSyncExternalStore(
    consentStore.subscribe,
    consentStore.snapshot,
    consentStore.serverSnapshot,
  );
  const ready = stored !== undefined;
  const choice = stored ?? null;

  useEffect(() => {
    // Before the cookie has been read, events keep waiting in the client (see setAnalyticsSink).
    if (!ready) return;
    if (choice !== "granted") {
      setAnalyticsSink(null);
      return;
    }
    const collector = createCollector();
    const sinks: Sink[] = [collector.sink];
    if (gaMeasurementId) sinks.push(loadGa4(gaMeasurementId));
    setAnalyticsSink((name, params) => sinks.forEach((sink) => sink(name, params)));
    return () => {
      // Withdrawal takes effect at once: no queued event is sent afterwards.
      setAnalyticsSink(null);
      collector.stop();
    };
  }, [ready, choice, gaMeasurementId]);

  usePageViews(choice === "granted");

  const grant = useCallback(() => consentStore.set("granted"), []);
  const deny = useCallback(() => {
    forgetClientId();
    consentStore.set("denied");
  }, []);

  const value = useMemo(() => ({ choice, ready, grant, deny }), [choice, ready, grant, deny]);
  return <ConsentContext.Provider value={value}>{children}</ConsentContext.Provider>;
}
