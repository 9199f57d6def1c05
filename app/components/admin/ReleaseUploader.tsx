import { useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { formatBytes } from "~/lib/format";

interface UploadState {
  name: string;
  loaded: number;
  total: number;
  error?: string;
  done?: boolean;
}

/** Sends one file as the body of a PUT, reporting upload progress (fetch cannot, XHR can). */
function putFile(
  url: string,
  file: File,
  onProgress: (loaded: number) => void,
): Promise<{ ok: boolean; message: string }> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("PUT", url);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      let message = `HTTP ${request.status}`;
      try {
        const body = JSON.parse(request.responseText) as { error?: string };
        if (body.error) message = body.error;
      } catch {
        // not JSON: keep the status line
      }
      resolve({ ok: request.status >= 200 && request.status < 300, message });
    };
    request.onerror = () => resolve({ ok: false, message: "The connection failed." });
    request.send(file);
  });
}

/**
 * The file picker's `accept`: extensions start with a dot, so a suffix such as `-full.nupkg` is
 * offered as `.nupkg` (the server still checks the whole suffix).
 */
export function acceptAttribute(suffixes: readonly string[]): string {
  const tokens = suffixes.map((suffix) =>
    suffix.startsWith(".") ? suffix : `.${suffix.split(".").slice(1).join(".")}`,
  );
  return [...new Set(tokens)].join(",");
}

export function Uploader({
  releaseId,
  accepted,
  limit,
}: {
  releaseId: string;
  accepted: string[];
  limit: number;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<UploadState[]>([]);
  const [running, setRunning] = useState(false);
  const revalidator = useRevalidator();

  async function start() {
    const files = [...(input.current?.files ?? [])].sort(
      (a, b) => Number(a.name.endsWith(".sig")) - Number(b.name.endsWith(".sig")),
    );
    if (files.length === 0) return;
    setRunning(true);
    setUploads(files.map((file) => ({ name: file.name, loaded: 0, total: file.size })));
    for (const [index, file] of files.entries()) {
      const update = (change: Partial<UploadState>) =>
        setUploads((current) =>
          current.map((entry, at) => (at === index ? { ...entry, ...change } : entry)),
        );
      if (file.size > limit) {
        update({ error: `Larger than the upload limit of ${formatBytes(limit)}.` });
        continue;
      }
      const result = await putFile(
        `/api/admin/releases/${releaseId}/files/${encodeURIComponent(file.name)}`,
        file,
        (loaded) => update({ loaded }),
      );
      update(result.ok ? { done: true, loaded: file.size } : { error: result.message });
    }
    setRunning(false);
    if (input.current) input.current.value = "";
    await revalidator.revalidate();
  }

  return (
    <div className="space-y-4">
      <div>
        <label htmlFor="release-files" className="block text-sm font-medium text-slate-200">
          Files ({accepted.join(", ")}; up to {formatBytes(limit)} each)
        </label>
        <input
          ref={input}
          id="release-files"
          type="file"
          multiple
          accept={acceptAttribute(accepted)}
          className="mt-2 block text-sm text-slate-200"
        />
      </div>
      <button type="button" className="btn-primary" disabled={running} onClick={() => void start()}>
        {running ? "Uploading…" : "Upload"}
      </button>
      {uploads.length > 0 ? (
        <ul className="space-y-3" aria-live="polite">
          {uploads.map((upload) => (
            <li key={upload.name} className="text-sm text-slate-200">
              <div className="flex justify-between gap-2">
                <span className="font-mono text-xs break-all">{upload.name}</span>
                <span className="tabular-nums text-slate-300">
                  {upload.error
                    ? "Failed"
                    : upload.done
                      ? "Uploaded"
                      : `${Math.floor((upload.loaded / Math.max(upload.total, 1)) * 100)}%`}
                </span>
              </div>
              <progress
                className="mt-1 h-2 w-full accent-green-500"
                max={Math.max(upload.total, 1)}
                value={upload.loaded}
                aria-label={`Upload of ${upload.name}`}
              />
              {upload.error ? <p className="text-red-300">{upload.error}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
