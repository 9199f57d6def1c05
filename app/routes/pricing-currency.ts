/**
 * The pricing page's currency switch (issue 56): remembers the choice in the `currency` cookie
 * and goes back to /pricing in it, keeping the billing cycle. A link, so it works without
 * scripts; a currency not offered now is not remembered.
 */
import { redirect } from "react-router";
import { currencyCookie, offeredCurrency } from "~/.server/billing/pricing-currency.server";
import type { Route } from "./+types/pricing-currency";

export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const currency = offeredCurrency(url.searchParams.get("to")) ?? "INR";
  const back = new URLSearchParams();
  if (currency !== "INR") back.set("currency", currency);
  const billing = url.searchParams.get("billing");
  if (billing === "monthly" || billing === "yearly") back.set("billing", billing);
  const query = back.toString();
  return redirect(`/pricing${query ? `?${query}` : ""}`, {
    headers: {
      "Set-Cookie": currencyCookie(currency, url.protocol === "https:"),
      "Cache-Control": "private, no-store",
    },
  });
}
