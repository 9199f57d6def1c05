import { z } from "zod";
import { createDraftRelease } from "~/.server/releases/manage.server";
import { listReleases } from "~/.server/releases/queries.server";
import { sparklePublicKey } from "~/.server/releases/update-key.server";
import {
  apiError,
  readJson,
  releaseErrorResponse,
  requireAdminApi,
} from "~/.server/releases/api.server";
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
  critical: z.boolean().optional(),
  minimumSystemVersion: z.string().optional(),
});

/** POST /api/admin/releases {version, channel?, notes?, critical?, minimumSystemVersion?}: a draft. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return apiError(405, "Use POST.");
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  const body = await readJson(request);
  if (body instanceof Response) return body;
  const parsed = createSchema.safeParse(body);
  if (!parsed.success) return apiError(400, parsed.error.issues[0]?.message ?? "invalid body");
  try {
    const draft = await createDraftRelease(parsed.data);
    return Response.json(releaseJson(draft), {
      status: 201,
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    return releaseErrorResponse(error);
  }
}
