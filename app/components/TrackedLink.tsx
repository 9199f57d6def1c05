import { Link, type LinkProps } from "react-router";
import { track } from "~/lib/analytics/client";

/** A call-to-action link that reports `cta_click` with its name and place. */
export function CtaLink({
  cta,
  location,
  onClick,
  ...props
}: LinkProps & { cta: string; location: string }) {
  return (
    <Link
      {...props}
      onClick={(event) => {
        track("cta_click", { cta_name: cta, cta_location: location });
        onClick?.(event);
      }}
    />
  );
}
