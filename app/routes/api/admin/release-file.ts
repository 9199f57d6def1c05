import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { addReleaseFile, removeReleaseFile } from "~/.server/releases/manage.server";
import { apiError, releaseErrorResponse, requireAdminApi } from "~/.server/releases/api.server";
import { assetJson } from "~/.server/releases/json.server";
import { uploadLimitBytes } from "~/.server/releases/storage/index.server";
import type { RouteHandle } from "~/lib/route-handle";
import type { Route } from "./+types/release-file";

/** Installers of hundreds of MB: the action streams the body itself, with its own limit. */
export const handle: RouteHandle = { body: "streamed" };

/**
 * PUT /api/admin/releases/:id/files/:name[?arch=&ed_signature=]: the file's bytes as the body,
 * streamed to storage (never buffered whole) and hashed on the way. DELETE removes it from a draft.
 * The role is checked before a byte is read.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const caller = await requireAdminApi(request);
  if (caller instanceof Response) return caller;
  try {
    if (request.method === "DELETE") {
      await removeReleaseFile(params.id, params.name);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PUT") return apiError(405, "Use PUT with the file as the body.");
    const length = Number(request.headers.get("content-length") ?? "0");
    if (length > uploadLimitBytes())
      return apiError(
        413,
        `The file is larger than the upload limit of ${Math.floor(uploadLimitBytes() / 1024 / 1024)} MB.`,
      );
    if (!request.body) return apiError(400, "The request has no body.");
    const url = new URL(request.url);
    const asset = await addReleaseFile(
      params.id,
      {
        fileName: params.name,
        arch: url.searchParams.get("arch") ?? undefined,
        edSignature: url.searchParams.get("ed_signature") ?? undefined,
      },
      Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>),
    );
    return Response.json(assetJson(asset), {
      status: 201,
      headers: { "Cache-Control": "no-store" },
    });
  } catch (error) {
    return releaseErrorResponse(error);
  }
}

export async function loader() {
  return apiError(405, "Use PUT with the file as the body.");
}
