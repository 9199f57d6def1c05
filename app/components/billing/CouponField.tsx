import { Form, Link } from "react-router";

/**
 * The coupon field, out of the way: a plain GET form back to this page with `?coupon=`, so it
 * works without scripts and the server checks the code with every rule before anything is paid.
 */
export function CouponField({ planId, code }: { planId: string; code: string | null }) {
  return (
    <details className="mt-3 text-sm" open={code !== null}>
      <summary className="cursor-pointer text-slate-300">Have a coupon code?</summary>
      <Form method="get" className="mt-2 flex flex-wrap items-end gap-2">
        <input type="hidden" name="plan" value={planId} />
        <label className="block">
          <span className="block text-slate-300">Coupon code</span>
          <input
            name="coupon"
            defaultValue={code ?? ""}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            className="mt-1 w-48 rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 font-mono uppercase text-slate-100"
          />
        </label>
        <button type="submit" className="btn-secondary">
          Apply
        </button>
        {code ? (
          <Link className="link self-center" to={`/checkout?plan=${planId}`}>
            Remove the coupon
          </Link>
        ) : null}
      </Form>
    </details>
  );
}
