import { Form } from "react-router";
import { Field, SubmitButton } from "~/components/forms";
import type { ReactNode } from "react";

const INPUT =
  "mt-1 block w-full rounded-lg border border-slate-700 bg-slate-900 px-3 py-2 text-slate-100";

/**
 * The draft's settings on /admin/releases: version, channel, notes, and what Sparkle reads from
 * the release (critical, informational, the version below which apps ask before updating).
 */
export function NewReleaseForm({
  errors,
  message,
  pending,
}: {
  errors: Record<string, string[] | undefined> | undefined;
  message: ReactNode;
  pending: boolean;
}) {
  return (
    <Form method="post" className="grid gap-x-4 sm:grid-cols-2">
      <input type="hidden" name="intent" value="create" />
      <Field label="Version" name="version" placeholder="1.4.0" required errors={errors?.version} />
      <div>
        <label htmlFor="channel" className="block text-sm font-medium text-slate-200">
          Channel
        </label>
        <select id="channel" name="channel" className={INPUT}>
          <option value="stable">Stable</option>
          <option value="beta">Beta</option>
        </select>
      </div>
      <Field
        label="Minimum macOS version (optional)"
        name="minimumSystemVersion"
        placeholder="12.0"
        errors={errors?.minimumSystemVersion}
      />
      <Field
        label="Apps below this version ask before updating (optional, Sparkle)"
        name="minimumAutoupdateVersion"
        placeholder="2.0.0"
        errors={errors?.minimumAutoupdateVersion}
      />
      <div className="flex items-center gap-2 pt-2">
        <input id="critical" type="checkbox" name="critical" className="h-4 w-4" />
        <label htmlFor="critical" className="text-sm text-slate-200">
          Critical update (apps install it without asking)
        </label>
      </div>
      <div className="flex items-center gap-2 pt-2">
        <input id="informational" type="checkbox" name="informational" className="h-4 w-4" />
        <label htmlFor="informational" className="text-sm text-slate-200">
          Informational (Sparkle shows it and links to the download page, without installing)
        </label>
      </div>
      <div className="mt-4 sm:col-span-2">
        <label htmlFor="notes" className="block text-sm font-medium text-slate-200">
          Release notes (Markdown)
        </label>
        <textarea id="notes" name="notes" rows={5} className={INPUT} />
      </div>
      <div className="mt-4 space-y-3 sm:col-span-2">
        {message}
        <SubmitButton
          pending={pending}
          label="Create draft"
          pendingLabel="Creating…"
          className="btn-primary"
        />
      </div>
    </Form>
  );
}
