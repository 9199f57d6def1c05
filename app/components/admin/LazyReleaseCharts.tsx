import { lazy, Suspense } from "react";
import type { ReleaseChartsProps } from "~/components/admin/ReleaseCharts";
import { useHydrated } from "~/lib/use-hydrated";

// The server never renders the charts, so its bundle leaves Recharts out: the server build is one
// file, where a dynamic import would be inlined and load Recharts (about 25 MB) at start-up
// (decision 0051). `import.meta.env.SSR` is replaced at build time.
const ReleaseCharts = import.meta.env.SSR
  ? () => null
  : lazy(() => import("~/components/admin/ReleaseCharts"));

/** The release charts, loaded only in the browser (Recharts is large and client-only). */
export function ChartsWhenHydrated(props: ReleaseChartsProps) {
  // Recharts only ever renders in the browser.
  const hydrated = useHydrated();
  if (!hydrated) return <div className="h-56" />;
  return (
    <Suspense fallback={<div className="h-56" />}>
      <ReleaseCharts {...props} />
    </Suspense>
  );
}
