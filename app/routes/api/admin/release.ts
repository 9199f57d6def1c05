import { z } from "zod";
import { deleteDraft, publishDraft, updateRelease } from "~/.server/releases/manage.server";
import { findReleaseById } from "~/.server/releases/queries.server";
import {
  apiError,
  readJson,
  releaseErrorResponse,
  requireAdminApi,
} from "~/.server/releases/api.server";
import { releaseJson } from "~/.server/releases/json.server";
import type { Route } from "./+types/release";

export async function loader({ request, params }: Route.LoaderArgs) {
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  const release = await findReleaseById(params.id);
  if (!release) return apiError(404, "no such release");
  return Response.json(releaseJson(release), { headers: { "Cache-Control": "no-store" } });
}

const changeSchema = z.union([
  z.object({
    action: z.literal("publish"),
    rolloutPercent: z.number().int().min(0).max(100).optional(),
  }),
  z.object({ action: z.literal("rollout"), rolloutPercent: z.number().int().min(0).max(100) }),
  z.object({ action: z.literal("pause") }),
  z.object({ action: z.literal("resume") }),
  z.object({ action: z.literal("pull") }),
  z.object({ action: z.literal("restore") }),
]);

/**
 * POST /api/admin/releases/:id {action: publish|rollout|pause|resume|pull|restore};
 * DELETE removes a draft.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  try {
    if (request.method === "DELETE") {
      await deleteDraft(params.id);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "POST") return apiError(405, "Use POST or DELETE.");
    const body = await readJson(request);
    if (body instanceof Response) return body;
    const parsed = changeSchema.safeParse(body);
    if (!parsed.success)
      return apiError(
        400,
        "action must be publish, rollout (with rolloutPercent 0-100), pause, resume, pull or restore",
      );
    const change = parsed.data;
    if (change.action === "publish")
      await publishDraft(params.id, { rolloutPercent: change.rolloutPercent });
    else if (change.action === "rollout")
      await updateRelease(params.id, { rolloutPercent: change.rolloutPercent });
    else if (change.action === "pause" || change.action === "resume")
      await updateRelease(params.id, { paused: change.action === "pause" });
    else
      await updateRelease(params.id, { status: change.action === "pull" ? "pulled" : "published" });
    const release = await findReleaseById(params.id);
    return Response.json(release ? releaseJson(release) : null, {
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    return releaseErrorResponse(error);
  }
}
