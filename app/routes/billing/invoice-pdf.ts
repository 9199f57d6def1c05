import { requireSession } from "~/.server/auth/session";
import { invoiceById } from "~/.server/invoices/queries.server";
import { invoicePdf } from "~/.server/invoices/stored-pdf.server";
import { managesTeam } from "~/.server/teams/teams.server";
import type { Route } from "./+types/invoice-pdf";

/**
 * /invoices/<id>.pdf: the buyer's (or an admin's) document, or a team's for its owner and billing
 * managers; anyone else, a team's members included, gets the same 404.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user } = requireSession(context);
  const id = /^([0-9a-f-]{36})\.pdf$/.exec(params.file)?.[1];
  const row = id ? await invoiceById(id) : null;
  const mine =
    row !== null &&
    (row.userId === user.id ||
      user.role === "admin" ||
      (row.teamId !== null && (await managesTeam(user.id, row.teamId))));
  if (!row || !mine)
    return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
  // The bytes stored when it was issued, checked against their hash (a mismatch is a 500).
  const pdf = await invoicePdf(row);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${row.number.replaceAll("/", "-")}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
