import { requireSession } from "~/.server/auth/session";
import { licenceFileAnswer } from "~/.server/desktop/licence-files.server";
import type { Route } from "./+types/licence-file";

/**
 * POST /account/licence-file (issue 57, point 3): the Security page's form; the answer is the
 * licence file to save, or back to the page with why not.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireSession(context);
  return licenceFileAnswer(session.user.id, await request.formData());
}

export function loader() {
  return new Response(null, { status: 303, headers: { Location: "/account/security" } });
}
