import { useEffect, useState } from "react";
import { http } from "./http";

export const FIRST_CHECK_DELAY_MS = 1_000;
export const CHECK_INTERVAL_MS = 10 * 60 * 1_000;

interface VersionInfo {
  buildId: string;
  builtAt: string;
}

async function fetchServerVersion(): Promise<VersionInfo | null> {
  const response = await http("/version.json", {
    cache: "no-store",
    headers: { Accept: "application/json" },
  });
  if (!response.ok) return null;
  const body = (await response.json()) as Partial<VersionInfo>;
  return typeof body.buildId === "string"
    ? { buildId: body.buildId, builtAt: String(body.builtAt ?? "") }
    : null;
}

/**
 * True once the server runs a newer build than the one this tab loaded. Checks about 1 s after
 * load, then every 10 minutes and whenever the tab comes back into focus.
 */
export function useNewVersionAvailable(currentBuildId: string): boolean {
  const [available, setAvailable] = useState(false);

  useEffect(() => {
    if (available) return;
    let cancelled = false;
    const check = async () => {
      try {
        const server = await fetchServerVersion();
        if (!cancelled && server && server.buildId !== currentBuildId) setAvailable(true);
      } catch {
        // Offline or deploying: the next check will tell.
      }
    };
    const first = window.setTimeout(check, FIRST_CHECK_DELAY_MS);
    const interval = window.setInterval(check, CHECK_INTERVAL_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") void check();
    };
    window.addEventListener("focus", onVisible);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      cancelled = true;
      window.clearTimeout(first);
      window.clearInterval(interval);
      window.removeEventListener("focus", onVisible);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [available, currentBuildId]);

  return available;
}
