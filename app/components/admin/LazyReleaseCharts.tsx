import { lazy, Suspense } from "react";
import { useHydrated } from "~/lib/use-hydrated";

const ReleaseCharts = lazy(() => import("~/components/admin/ReleaseCharts"));

/** The release charts, loaded only in the browser (Recharts is large and client-only). */
export function ChartsWhenHydrated(props: React.ComponentProps<typeof ReleaseCharts>) {
  // Recharts only ever renders in the browser.
  const hydrated = useHydrated();
  if (!hydrated) return <div className="h-56" />;
  return (
    <Suspense fallback={<div className="h-56" />}>
      <ReleaseCharts {...props} />
    </Suspense>
  );
}
