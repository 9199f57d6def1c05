const PATHS = {
  chip: "M9 3v2M15 3v2M9 19v2M15 19v2M3 9h2M3 15h2M19 9h2M19 15h2M7 5h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Zm3 5h4v4h-4z",
  terminal:
    "M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm3 5 3 2-3 2m5 0h5",
  wave: "M3 16h3V8h4v8h4V8h4v8h3",
  bolt: "M13 3 5 14h6l-1 7 8-11h-6l1-7Z",
} as const;

export type IconName = keyof typeof PATHS;

export function FeatureIcon({ name }: { name: IconName }) {
  return (
    <span className="inline-flex h-10 w-10 items-center justify-center rounded-lg bg-green-500/10 text-green-400">
      <svg
        viewBox="0 0 24 24"
        className="h-6 w-6"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d={PATHS[name]} />
      </svg>
    </span>
  );
}
