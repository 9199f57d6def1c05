import { z } from "zod";
import { createDraftRelease } from "~/.server/releases/manage.server";
import { listReleases } from "~/.server/releases/queries.server";
import { sparklePublicKey } from "~/.server/releases/update-key.server";
import { apiAction } from "~/.server/http/api-action";
import { apiError, requireAdminApi } from "~/.server/releases/api.server";
import { releaseJson } from "~/.server/releases/json.server";
import type { Route } from "./+types/releases";

/** GET /api/admin/releases: every release with its files (admin). */
export async function loader({ request }: Route.LoaderArgs) {
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  const [all, publicKey] = await Promise.all([
    listReleases(["draft", "published", "pulled"]),
    sparklePublicKey(),
  ]);
  return Response.json(
    { sparklePublicKey: publicKey, releases: all.map(releaseJson) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const createSchema = z.object({
  version: z.string(),
  channel: z.enum(["stable", "beta"]).optional(),
  notes: z.string().optional(),
  notesTranslations: z.record(z.string(), z.string()).optional(),
  critical: z.boolean().optional(),
  informational: z.boolean().optional(),
  minimumAutoupdateVersion: z.string().optional(),
  minimumSystemVersion: z.string().optional(),
});

/**
 * POST /api/admin/releases {version, channel?, notes?, notesTranslations? ({"hi": "…"}), critical?, informational?,
 * minimumAutoupdateVersion?, minimumSystemVersion?}: a draft.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Use POST.");
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  return apiAction(request, { schema: createSchema, status: 201 }, async (input) =>
    releaseJson(await createDraftRelease(input)),
  );
}
