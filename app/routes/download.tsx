import { PageHeader } from "~/components/PageHeader";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/download";

export const meta: Route.MetaFunction = () =>
  pageMeta("Download", "Download the desktop app for Mac and Windows.");

export default function DownloadPage() {
  return (
    <div className="prose-page">
      <PageHeader title={"Download"} lead={"Download the desktop app for Mac and Windows."} />
      <p className="text-slate-400">This page is not available yet.</p>
    </div>
  );
}
