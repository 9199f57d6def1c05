import { Form, Link, redirect, useActionData } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { z } from "zod";
import {
  createAdminToken,
  listAdminTokens,
  revokeAdminToken,
} from "~/.server/admin/api-tokens.server";
import { requireAdmin } from "~/.server/auth/session";
import { env } from "~/.server/env";
import { done, formAction } from "~/.server/forms/action.server";
import { releaseState } from "~/.server/releases/admin.server";
import { createDraftRelease } from "~/.server/releases/manage.server";
import { minimumVersions, setMinimumVersion } from "~/.server/releases/policy.server";
import { listReleases } from "~/.server/releases/queries.server";
import { countsPerVersion } from "~/.server/releases/stats.server";
import { sparklePublicKey } from "~/.server/releases/update-key.server";
import { versionSchema } from "~/.server/releases/versions";
import { AdminPage, AdminSection, TD, AdminTable } from "~/components/admin/AdminUi";
import { Field, FormMessage } from "~/components/forms";
import { NewReleaseForm } from "~/components/admin/NewReleaseForm";
import { PageHeader } from "~/components/PageHeader";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { UPDATE_FEED_URLS } from "~/lib/update-feeds";
import { PLATFORMS, type Platform } from "~/lib/platform";
import type { Route } from "./+types/releases";

export const meta: Route.MetaFunction = () =>
  pageMeta("Releases", "Publish desktop releases, roll them out and follow downloads.");

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  const [releases, counts, minimums, tokens, publicKey] = await Promise.all([
    listReleases(["draft", "published", "pulled"]),
    countsPerVersion(),
    minimumVersions(),
    listAdminTokens(),
    sparklePublicKey(),
  ]);
  return {
    siteUrl: env().SITE_URL,
    publicKey,
    minimums,
    tokens: tokens.map((token) => ({
      ...token,
      createdAt: token.createdAt.toISOString(),
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    })),
    releases: releases.map((release) => ({
      id: release.id,
      version: release.version,
      channel: release.channel,
      state: releaseState(release),
      files: release.assets.length,
      publishedAt: release.status === "draft" ? null : release.publishedAt.toISOString(),
      downloads: counts.get(release.version)?.downloads ?? 0,
      updateChecks: counts.get(release.version)?.updateChecks ?? 0,
    })),
  };
}

const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create"),
    version: versionSchema,
    channel: z.enum(["stable", "beta"]),
    notes: z.string().max(20_000).default(""),
    critical: z.literal("on").optional(),
    informational: z.literal("on").optional(),
    minimumSystemVersion: z.string().max(20).default(""),
    minimumAutoupdateVersion: z.union([versionSchema, z.literal("")]).default(""),
  }),
  z.object({
    intent: z.literal("minimum"),
    platform: z.enum(["mac", "windows"]),
    version: z.union([versionSchema, z.literal("")]),
  }),
  z.object({ intent: z.literal("token"), name: z.string().trim().min(1).max(80) }),
  z.object({ intent: z.literal("revoke"), id: z.uuid() }),
]);

export async function action(args: Route.ActionArgs) {
  return formAction(
    args,
    schema,
    async (input, session) => {
      switch (input.intent) {
        case "create": {
          const draft = await createDraftRelease({
            ...input,
            critical: input.critical === "on",
            informational: input.informational === "on",
          });
          return redirect(`/admin/releases/${draft.id}`);
        }
        case "minimum":
          await setMinimumVersion(input.platform, input.version || null);
          return done(
            "minimum",
            input.version
              ? `${PLATFORMS[input.platform].label}: apps older than ${input.version} must update.`
              : `${PLATFORMS[input.platform].label}: no minimum version.`,
          );
        case "token": {
          const token = await createAdminToken(session.user.id, input.name);
          return {
            intent: "token",
            ok: true,
            message: "Copy the token now: it is shown only once.",
            token,
          };
        }
        case "revoke":
          await revokeAdminToken(input.id);
          return done("revoke", "Token revoked.");
      }
    },
    { role: "admin" },
  );
}

export default function ReleasesPage({ loaderData }: Route.ComponentProps) {
  const { releases, minimums, tokens, publicKey, siteUrl } = loaderData;
  const result = useActionData<typeof action>();
  const pending = usePendingForms();
  const message = (intent: string) =>
    result && "intent" in result && result.intent === intent ? (
      <FormMessage tone={result.ok ? "success" : "error"} message={result.message} />
    ) : null;
  const errors =
    result && "errors" in result && result.intent === "create" ? result.errors : undefined;
  const newToken = result && "token" in result ? (result.token as string) : null;

  return (
    <AdminPage>
      <PageHeader
        title="Releases"
        lead="Publish desktop builds, roll them out gradually, and see who downloads and updates."
      />

      <AdminSection id="releases" title="All releases">
        {releases.length === 0 ? (
          <p className="text-sm text-slate-300">No releases yet: create the first one below.</p>
        ) : (
          <AdminTable
            caption="All releases"
            columns={["Version", "Channel", "State", "Published", "Downloads", "Update checks", ""]}
          >
            {releases.map((release) => (
              <tr key={release.id} className="border-b border-slate-800/60">
                <td className={`${TD} font-mono`}>{release.version}</td>
                <td className={TD}>{release.channel}</td>
                <td className={TD}>{release.state}</td>
                <td className={TD}>
                  {release.publishedAt ? formatDate(release.publishedAt) : "—"}
                </td>
                <td className={`${TD} tabular-nums`}>
                  {release.downloads.toLocaleString("en-IN")}
                </td>
                <td className={`${TD} tabular-nums`}>
                  {release.updateChecks.toLocaleString("en-IN")}
                </td>
                <td className={TD}>
                  <Link className="link" to={`/admin/releases/${release.id}`}>
                    Manage<span className="sr-only"> {release.version}</span>
                  </Link>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </AdminSection>

      <AdminSection
        id="new-release"
        title="New release"
        lead="A draft is invisible to visitors and apps until you publish it, after uploading its files."
      >
        <NewReleaseForm
          errors={errors}
          message={message("create")}
          pending={pending({ intent: "create" })}
        />
      </AdminSection>

      <AdminSection
        id="minimum"
        title="Minimum supported version"
        lead="Apps older than this are told an update is required (/api/desktop/me) and get it as a critical update."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          {(Object.keys(PLATFORMS) as Platform[]).map((platform) => (
            <Form key={platform} method="post" className="space-y-2">
              <input type="hidden" name="intent" value="minimum" />
              <input type="hidden" name="platform" value={platform} />
              <Field
                label={`${PLATFORMS[platform].label} minimum version`}
                name="version"
                defaultValue={minimums[platform] ?? ""}
                placeholder="none"
              />
              <button type="submit" className="btn-secondary">
                Save {PLATFORMS[platform].label} minimum
              </button>
            </Form>
          ))}
        </div>
        <div className="mt-3">{message("minimum")}</div>
      </AdminSection>

      <AdminSection
        id="feeds"
        title="Update feeds"
        lead="The URLs to configure in the app's updater."
      >
        <dl className="space-y-2 text-sm">
          {UPDATE_FEED_URLS.map(([label, path]) => (
            <div key={path} className="sm:flex sm:gap-4">
              <dt className="text-slate-300 sm:w-56">{label}</dt>
              <dd className="font-mono text-xs break-all text-slate-100">
                {siteUrl}
                {path}
              </dd>
            </div>
          ))}
          <div className="sm:flex sm:gap-4">
            <dt className="text-slate-300 sm:w-56">Sparkle SUPublicEDKey</dt>
            <dd className="font-mono text-xs break-all text-slate-100" data-testid="sparkle-key">
              {publicKey}
            </dd>
          </div>
        </dl>
      </AdminSection>

      <AdminSection
        id="tokens"
        title="Publishing tokens"
        lead="For npm run release:publish -- --site … --token …: publishes to this running site."
      >
        {newToken ? (
          <p className="mb-3 rounded-lg border border-green-500/40 bg-green-950/40 p-3 font-mono text-xs break-all text-green-100">
            {newToken}
          </p>
        ) : null}
        {message("token")}
        {message("revoke")}
        {tokens.length > 0 ? (
          <ul className="mb-4 divide-y divide-slate-800 text-sm">
            {tokens.map((token) => (
              <li key={token.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                {/* Named by whoever made it, with their address: either may be one long word. */}
                <span className="min-w-0 text-slate-200 wrap-anywhere">
                  {token.name}{" "}
                  <span className="text-slate-400">
                    ({token.email}, created {formatDate(token.createdAt)}
                    {token.lastUsedAt
                      ? `, last used ${formatDate(token.lastUsedAt)}`
                      : ", never used"}
                    )
                  </span>
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke" />
                  <input type="hidden" name="id" value={token.id} />
                  <button type="submit" className="btn-secondary">
                    Revoke<span className="sr-only"> {token.name}</span>
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="post" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="token" />
          <Field label="Token name" name="name" placeholder="CI release job" required />
          <button type="submit" className="btn-secondary mb-6">
            Create token
          </button>
        </Form>
      </AdminSection>
    </AdminPage>
  );
}
