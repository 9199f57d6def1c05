import { useState } from "react";

/**
 * A long hash shown short (first and last characters) with the whole value one click away in a
 * <details> (works without JavaScript) and a copy button, so a narrow screen never stacks 64
 * characters into a tower.
 */
export function CopyableHash({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="inline-flex flex-wrap items-start gap-2">
      <details className="min-w-0">
        <summary className="cursor-pointer font-mono text-xs">
          {value.slice(0, 8)}…{value.slice(-8)}
          <span className="sr-only"> (show the full {label})</span>
        </summary>
        <code className="mt-1 block font-mono text-xs break-all">{value}</code>
      </details>
      <button
        type="button"
        className="link text-xs"
        onClick={async () => {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        }}
      >
        {copied ? "Copied" : "Copy"}
        <span className="sr-only"> the {label}</span>
      </button>
    </span>
  );
}
