/** Says plainly that nothing here is a real payment (test keys or the built-in sandbox). */
export function TestModeBadge({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <p
      className="inline-flex items-center gap-2 rounded-md border border-yellow-400/60 bg-yellow-300 px-3 py-1 text-sm font-semibold text-slate-950"
      data-testid="test-mode"
    >
      <span>Test mode</span>
      <span className="font-normal">Payments are simulated; nothing is charged.</span>
    </p>
  );
}
