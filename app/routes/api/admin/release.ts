import { z } from "zod";
import { deleteDraft, publishDraft, updateRelease } from "~/.server/releases/manage.server";
import { findReleaseById } from "~/.server/releases/queries.server";
import { apiAction, refusalResponse } from "~/.server/http/api-action";
import { apiError, requireAdminApi } from "~/.server/releases/api.server";
import { releaseJson } from "~/.server/releases/json.server";
import type { Route } from "./+types/release";

export async function loader({ request, params }: Route.LoaderArgs) {
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  const release = await findReleaseById(params.id);
  if (!release) return apiError(404, "no such release");
  return Response.json(releaseJson(release), { headers: { "Cache-Control": "no-store" } });
}

const changeSchema = z.union(
  [
    z.object({
      action: z.literal("publish"),
      rolloutPercent: z.number().int().min(0).max(100).optional(),
    }),
    z.object({ action: z.literal("rollout"), rolloutPercent: z.number().int().min(0).max(100) }),
    z.object({ action: z.literal("pause") }),
    z.object({ action: z.literal("resume") }),
    z.object({ action: z.literal("pull") }),
    z.object({ action: z.literal("restore") }),
  ],
  {
    error:
      "action must be publish, rollout (with rolloutPercent 0-100), pause, resume, pull or restore",
  },
);

/**
 * POST /api/admin/releases/:id {action: publish|rollout|pause|resume|pull|restore};
 * DELETE removes a draft.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  if (request.method === "DELETE") {
    try {
      await deleteDraft(params.id);
    } catch (error) {
      return refusalResponse(error);
    }
    return new Response(null, { status: 204 });
  }
  if (request.method !== "POST") return apiError(405, "Use POST or DELETE.");
  return apiAction(request, { schema: changeSchema }, async (change) => {
    if (change.action === "publish")
      await publishDraft(params.id, { rolloutPercent: change.rolloutPercent });
    else if (change.action === "rollout")
      await updateRelease(params.id, { rolloutPercent: change.rolloutPercent });
    else if (change.action === "pause" || change.action === "resume")
      await updateRelease(params.id, { paused: change.action === "pause" });
    else
      await updateRelease(params.id, { status: change.action === "pull" ? "pulled" : "published" });
    const release = await findReleaseById(params.id);
    return release ? releaseJson(release) : null;
  });
}
