/** The product mark: a chip with pins, drawn inline so it costs no request. */
export function LogoMark({ className = "h-7 w-7" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true" focusable="false">
      <rect x="8" y="8" width="16" height="16" rx="3" fill="#22c55e" />
      <rect x="12" y="12" width="8" height="8" rx="1.5" fill="#0f172a" />
      <g stroke="#4ade80" strokeWidth="2" strokeLinecap="round">
        <path d="M12 3v4M16 3v4M20 3v4M12 25v4M16 25v4M20 25v4M3 12h4M3 16h4M3 20h4M25 12h4M25 16h4M25 20h4" />
      </g>
    </svg>
  );
}
