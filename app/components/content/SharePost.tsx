import { useState } from "react";
import { track } from "~/lib/analytics/client";
import { useHydrated } from "~/lib/use-hydrated";

type Outcome = "shared" | "cancelled" | "unavailable";

/** The system share sheet; "unavailable" when it is missing or refuses (then the link is copied). */
async function shareNatively(data: ShareData): Promise<Outcome> {
  if (typeof navigator.share !== "function") return "unavailable";
  try {
    await navigator.share(data);
    return "shared";
  } catch (error) {
    // The person closed the sheet: that is an answer, not a failure to fall back from.
    if (error instanceof DOMException && error.name === "AbortError") return "cancelled";
    return "unavailable";
  }
}

/**
 * Shares a blog post: the system share sheet where the browser has one (phones, Safari, Edge),
 * copying the link otherwise. `share` is sent only when something was shared or copied. The
 * button needs JavaScript, so it appears once the page is hydrated, in a row whose height is
 * reserved in the server's HTML: nothing moves when it does, and nobody meets a dead control.
 */
export function SharePost({ slug, title, url }: { slug: string; title: string; url: string }) {
  const hydrated = useHydrated();
  const [status, setStatus] = useState("");
  const native = hydrated && typeof navigator.share === "function";

  async function share() {
    setStatus("");
    const outcome = await shareNatively({ title, url });
    if (outcome === "cancelled") return;
    if (outcome === "shared") {
      track("share", { method: "web_share", content_type: "blog_post", item_id: slug });
      return;
    }
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      setStatus(`Copying did not work here: the link is ${url}`);
      return;
    }
    track("share", { method: "copy_link", content_type: "blog_post", item_id: slug });
    setStatus("Link copied");
  }

  return (
    <div className="mt-10 flex min-h-10 flex-wrap items-center gap-x-4 gap-y-2">
      {hydrated ? (
        <button type="button" className="btn-secondary" onClick={share}>
          {native ? "Share this post" : "Copy link to this post"}
        </button>
      ) : null}
      <p role="status" className="min-w-0 text-sm break-words text-green-300">
        {status}
      </p>
    </div>
  );
}
