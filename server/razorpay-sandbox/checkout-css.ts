/**
 * Styles of the checkout modal and the hosted page (dark slate, WCAG AA contrast: #e2e8f0 on
 * #0f172a ≈ 14:1, #052e16 on #22c55e ≈ 6.9:1, #422006 on #facc15 ≈ 10:1, muted #94a3b8 ≈ 6.9:1).
 * Everything is a class rule: the site's CSP allows no inline styles.
 */
export const CHECKOUT_CSS = `
html.rzp-sbx-open { overflow: hidden; }
.rzp-sbx-overlay {
  position: fixed; inset: 0; z-index: 2147483000;
  display: flex; align-items: center; justify-content: center;
  padding: 16px; background: rgba(2, 6, 23, 0.82);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
.rzp-sbx-dialog {
  box-sizing: border-box; width: 100%; max-width: 420px; max-height: calc(100vh - 32px);
  overflow: auto; padding: 24px; border-radius: 12px; border: 1px solid #334155;
  background: #0f172a; color: #e2e8f0; box-shadow: 0 20px 50px rgba(0, 0, 0, 0.5);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
.rzp-sbx-dialog:focus { outline: none; }
.rzp-sbx-dialog:focus-visible { outline: 3px solid #38bdf8; outline-offset: 2px; }
.rzp-sbx-dialog *, .rzp-sbx-dialog *::before, .rzp-sbx-dialog *::after { box-sizing: border-box; }
.rzp-sbx-header { display: flex; align-items: flex-start; gap: 12px; margin-bottom: 8px; }
.rzp-sbx-logo { width: 40px; height: 40px; border-radius: 8px; object-fit: contain; }
.rzp-sbx-heading { flex: 1; margin: 0; font-size: 1.25rem; line-height: 1.3; color: #f8fafc; }
.rzp-sbx-badge {
  display: inline-block; padding: 2px 8px; border-radius: 999px;
  background: #facc15; color: #422006; font-size: 0.75rem; font-weight: 700;
  letter-spacing: 0.02em; text-transform: uppercase; white-space: nowrap;
}
.rzp-sbx-close {
  flex: none; width: 36px; height: 36px; margin: -6px -6px 0 0; padding: 0;
  border: 1px solid transparent; border-radius: 8px; background: transparent;
  color: #e2e8f0; font-size: 1.5rem; line-height: 1; cursor: pointer;
}
.rzp-sbx-close:hover { background: #1e293b; }
.rzp-sbx-dialog p { margin: 0 0 12px; }
.rzp-sbx-muted { color: #94a3b8; }
.rzp-sbx-amount { font-size: 1.75rem; font-weight: 700; color: #f8fafc; }
.rzp-sbx-amount .rzp-sbx-per { font-size: 1rem; font-weight: 400; color: #cbd5e1; }
.rzp-sbx-note { padding: 8px 12px; border-left: 3px solid #facc15; background: #1e293b; }
.rzp-sbx-methods { margin: 0 0 12px; padding: 12px; border: 1px solid #475569; border-radius: 8px; }
.rzp-sbx-methods legend { padding: 0 4px; color: #cbd5e1; font-size: 0.875rem; }
.rzp-sbx-choice { display: flex; align-items: center; gap: 8px; padding: 4px 0; cursor: pointer; }
.rzp-sbx-choice input { width: 18px; height: 18px; margin: 0; accent-color: #22c55e; }
.rzp-sbx-field { display: block; margin: 0 0 12px; }
.rzp-sbx-field span { display: block; margin-bottom: 4px; color: #cbd5e1; font-size: 0.875rem; }
.rzp-sbx-input {
  width: 100%; padding: 8px 10px; border: 1px solid #94a3b8; border-radius: 6px;
  background: #1e293b; color: #f8fafc; font: inherit;
}
.rzp-sbx-testcard {
  padding: 8px 10px; border: 1px dashed #94a3b8; border-radius: 6px;
  font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
}
.rzp-sbx-alert:empty, .rzp-sbx-status:empty { margin: 0; padding: 0; }
.rzp-sbx-alert { padding: 8px 12px; border-radius: 6px; background: #450a0a; color: #fecaca; }
.rzp-sbx-status { padding: 8px 12px; border-radius: 6px; background: #1e293b; color: #e2e8f0; }
.rzp-sbx-actions { display: flex; gap: 12px; margin-top: 16px; }
.rzp-sbx-button {
  flex: 1; min-height: 44px; padding: 10px 16px; border-radius: 8px; border: 1px solid transparent;
  font: inherit; font-weight: 700; cursor: pointer;
}
.rzp-sbx-primary { background: #22c55e; color: #052e16; }
.rzp-sbx-primary:hover { background: #4ade80; }
.rzp-sbx-danger { background: #1e293b; color: #fecaca; border-color: #f87171; }
.rzp-sbx-danger:hover { background: #334155; }
.rzp-sbx-button:disabled, .rzp-sbx-close:disabled { opacity: 0.6; cursor: not-allowed; }
.rzp-sbx-dialog button:focus-visible, .rzp-sbx-dialog input:focus-visible,
.rzp-sbx-dialog a:focus-visible {
  outline: 3px solid #38bdf8; outline-offset: 2px;
}
.rzp-sbx-dialog a { color: #7dd3fc; }
.rzp-sbx-footnote { margin-top: 16px; color: #94a3b8; font-size: 0.8125rem; }
body.rzp-sbx-page {
  margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
  padding: 16px; background: #020617; color: #e2e8f0;
}
.rzp-sbx-standalone { max-height: none; }
.rzp-sbx-dialog [hidden] { display: none !important; }
`;
