import { useRef, useState } from "react";
import { useClearOfPointer } from "~/lib/pointer";
import { useNewVersionAvailable } from "~/lib/version-check";

/**
 * A non-blocking notice that a newer build of the site is live. It appears after load, so it
 * waits (rendered invisible, taking no clicks) while the pointer is where it would appear.
 */
export function VersionToast() {
  const available = useNewVersionAvailable(__BUILD_ID__);
  const [dismissed, setDismissed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const wanted = available && !dismissed;
  const clear = useClearOfPointer(box, wanted);
  return (
    <div
      role="status"
      aria-live="polite"
      className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center px-4"
    >
      {wanted ? (
        <div
          ref={box}
          className={`flex items-center gap-3 rounded-lg border border-slate-700 bg-slate-900 px-4 py-3 text-sm text-slate-100 shadow-lg ${clear ? "pointer-events-auto" : "invisible"}`}
          aria-hidden={clear ? undefined : true}
        >
          <p>A new version of this site is available:</p>
          <button
            type="button"
            className="btn-primary px-3 py-1"
            onClick={() => window.location.reload()}
          >
            Reload
          </button>
          <button
            type="button"
            className="rounded p-1 text-slate-400 hover:text-white"
            onClick={() => setDismissed(true)}
          >
            <span className="sr-only">Dismiss</span>
            <svg
              viewBox="0 0 20 20"
              className="h-4 w-4"
              aria-hidden="true"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M5 5l10 10M15 5L5 15" />
            </svg>
          </button>
        </div>
      ) : null}
    </div>
  );
}
