import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import {
  isTwoFactorEnabled,
  changePassword,
  deleteAccount,
  listBrowserSessions,
  revokeBrowserSession,
  revokeOtherBrowserSessions,
} from "~/.server/account/account.server";
import { requireSession } from "~/.server/auth/session";
import { listDevices, revokeDevice } from "~/.server/desktop/devices.server";
import { Field, FormMessage } from "~/components/forms";
import { PageHeader } from "~/components/PageHeader";
import { TwoFactorSettings } from "~/components/TwoFactorSettings";
import { passwordSchema } from "~/lib/auth-forms";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/security";
import { Section } from "~/components/Section";

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Security",
    "Password, signed-in browsers and desktop devices, your data and your account.",
  );

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSession(context);
  const [browsers, devices, twoFactorEnabled] = await Promise.all([
    listBrowserSessions(request, session.id),
    listDevices(session.user.id),
    isTwoFactorEnabled(session.user.id),
  ]);
  return {
    twoFactorEnabled,
    browsers,
    devices: devices.map((device) => ({
      id: device.id,
      name: device.name,
      platform: device.platform,
      appVersion: device.appVersion,
      lastSeenAt: device.lastSeenAt.toISOString(),
    })),
  };
}

const intentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke-device"), deviceId: z.uuid() }),
  z.object({ intent: z.literal("revoke-session"), sessionId: z.string().min(1) }),
  z.object({ intent: z.literal("revoke-other-sessions") }),
  z.object({
    intent: z.literal("change-password"),
    currentPassword: z.string().min(1, { error: "Enter your current password." }),
    newPassword: passwordSchema,
  }),
  z.object({
    intent: z.literal("delete-account"),
    password: z.string().min(1, { error: "Enter your password." }),
  }),
]);

type ActionResult = {
  intent: string;
  ok: boolean;
  message: string;
  errors?: Record<string, string[]>;
};

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireSession(context);
  const values = Object.fromEntries(await request.formData());
  const parsed = intentSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (errors[String(issue.path[0])] ??= []).push(issue.message);
    const intent = typeof values.intent === "string" ? values.intent : "form";
    return data<ActionResult>(
      { intent, ok: false, message: "Check the form.", errors },
      { status: 400 },
    );
  }
  const input = parsed.data;
  switch (input.intent) {
    case "revoke-device": {
      const revoked = await revokeDevice(input.deviceId, session.user.id);
      return data<ActionResult>({
        intent: input.intent,
        ok: revoked,
        message: revoked
          ? "The device was signed out. It must sign in again to work online."
          : "That device was already signed out.",
      });
    }
    case "revoke-session": {
      if (input.sessionId === session.id)
        return data<ActionResult>(
          { intent: input.intent, ok: false, message: "Use Sign out for this browser." },
          { status: 400 },
        );
      const outcome = await revokeBrowserSession(request, input.sessionId);
      return data<ActionResult>({ intent: input.intent, ...outcome });
    }
    case "revoke-other-sessions":
      return data<ActionResult>({
        intent: input.intent,
        ...(await revokeOtherBrowserSessions(request)),
      });
    case "change-password": {
      const { headers, ...outcome } = await changePassword(request, {
        ...input,
        email: session.user.email,
        name: session.user.name,
      });
      return data<ActionResult>(
        { intent: input.intent, ...outcome },
        { status: outcome.ok ? 200 : 400, headers },
      );
    }
    case "delete-account": {
      const outcome = await deleteAccount(request, input.password);
      if (!outcome.ok)
        return data<ActionResult>({ intent: input.intent, ...outcome }, { status: 400 });
      // Better Auth's cookies are cleared too, the cached session included.
      throw redirect("/?account=deleted", { headers: outcome.headers });
    }
  }
}

function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Firefox\//.test(userAgent)
    ? "Firefox"
    : /Edg\//.test(userAgent)
      ? "Edge"
      : /Chrome\//.test(userAgent)
        ? "Chrome"
        : /Safari\//.test(userAgent)
          ? "Safari"
          : "Browser";
  const system = /Windows/.test(userAgent)
    ? "Windows"
    : /Mac OS X/.test(userAgent)
      ? "macOS"
      : /Android/.test(userAgent)
        ? "Android"
        : /iPhone|iPad/.test(userAgent)
          ? "iOS"
          : /Linux/.test(userAgent)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}

export default function SecurityPage({ loaderData, actionData }: Route.ComponentProps) {
  const { browsers, devices, twoFactorEnabled } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const result = (intent: string) => (actionData?.intent === intent ? actionData : null);
  const errors = actionData?.errors ?? {};

  return (
    <div className="space-y-6">
      <PageHeader
        title="Security"
        lead="Your password, where you are signed in, your data and your account."
      />

      <Section id="devices" title="Desktop devices">
        {result("revoke-device") ? (
          <FormMessage
            tone={result("revoke-device")!.ok ? "success" : "error"}
            message={result("revoke-device")!.message}
          />
        ) : null}
        {devices.length === 0 ? (
          <p className="text-slate-300">No desktop app is signed in to your account.</p>
        ) : (
          <ul className="divide-y divide-slate-800">
            {devices.map((device) => (
              <li key={device.id} className="flex items-center justify-between gap-4 py-3">
                <div>
                  <p className="font-medium text-white">{device.name}</p>
                  <p className="text-sm text-slate-400">
                    {device.platform === "mac" ? "macOS" : "Windows"} · app {device.appVersion} ·
                    last seen {formatDate(device.lastSeenAt)}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-device" />
                  <input type="hidden" name="deviceId" value={device.id} />
                  <button
                    type="submit"
                    className="btn-secondary"
                    disabled={busy}
                    aria-label={`Sign out ${device.name}`}
                  >
                    Sign out
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="browsers" title="Browser sessions">
        {result("revoke-session") || result("revoke-other-sessions") ? (
          <FormMessage
            tone={
              (result("revoke-session") ?? result("revoke-other-sessions"))!.ok
                ? "success"
                : "error"
            }
            message={(result("revoke-session") ?? result("revoke-other-sessions"))!.message}
          />
        ) : null}
        <ul className="divide-y divide-slate-800">
          {browsers.map((browser) => (
            <li key={browser.id} className="flex items-center justify-between gap-4 py-3">
              <div>
                <p className="font-medium text-white">
                  {describeBrowser(browser.userAgent)}{" "}
                  {browser.current ? (
                    <span className="ml-2 text-sm text-green-400">(this browser)</span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-400">
                  {browser.ipAddress ?? "unknown address"} · since {formatDate(browser.createdAt)}
                </p>
              </div>
              {browser.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="revoke-session" />
                  <input type="hidden" name="sessionId" value={browser.id} />
                  <button type="submit" className="btn-secondary" disabled={busy}>
                    Sign out
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {browsers.length > 1 ? (
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="revoke-other-sessions" />
            <button type="submit" className="btn-secondary" disabled={busy}>
              Sign out everywhere else
            </button>
          </Form>
        ) : null}
      </Section>

      <Section id="password" title="Change password">
        {result("change-password") ? (
          <FormMessage
            tone={result("change-password")!.ok ? "success" : "error"}
            message={result("change-password")!.message}
          />
        ) : null}
        <Form method="post" className="max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="change-password" />
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            errors={errors.currentPassword}
          />
          <Field
            label="New password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
            required
            errors={errors.newPassword}
          />
          <button type="submit" className="btn-primary" disabled={busy}>
            Change password
          </button>
        </Form>
      </Section>

      <Section id="two-factor" title="Two-factor authentication">
        <TwoFactorSettings enabled={twoFactorEnabled} />
      </Section>

      <Section id="data" title="Your data">
        <p className="text-slate-300">Download everything we store about you, as JSON.</p>
        <a href="/account/security/export" className="btn-secondary mt-4" download>
          Export my data
        </a>
      </Section>

      <Section id="delete" title="Delete account">
        <p className="text-slate-300">
          This erases your profile, devices, usage and messages, and signs you out everywhere. Tax
          invoices already issued are kept as the law requires. It cannot be undone.
        </p>
        {result("delete-account") ? (
          <FormMessage tone="error" message={result("delete-account")!.message} />
        ) : null}
        <Form method="post" className="mt-4 max-w-md space-y-2" noValidate>
          <input type="hidden" name="intent" value="delete-account" />
          <Field
            label="Your password, to confirm"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            errors={errors.password}
          />
          <button
            type="submit"
            className="inline-flex items-center rounded-lg bg-red-600 px-4 py-2 text-sm font-semibold text-white hover:bg-red-500"
            disabled={busy}
          >
            Delete my account
          </button>
        </Form>
      </Section>
    </div>
  );
}
