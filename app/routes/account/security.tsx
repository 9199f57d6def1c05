import { STATUS_RULES } from "~/lib/subscription-state";
import { z } from "zod";
import { isTwoFactorEnabled } from "~/.server/account/account.server";
import {
  confirmDeletion,
  confirmDeletionSchema,
  deleteAccount,
  deleteAccountSchema,
} from "~/.server/account/delete-account.server";
import { changePassword, changePasswordSchema } from "~/.server/account/password.server";
import { hasPassword } from "~/.server/account/session-origin.server";
import {
  listBrowserSessions,
  listDesktopDevices,
  revokeDeviceSchema,
  revokeOtherSessionsSchema,
  revokeSessionSchema,
  signOutBrowser,
  signOutDevice,
  signOutOtherBrowsers,
} from "~/.server/account/sign-ins.server";
import { confirmIdentity, stepUpSchema, stepUpState } from "~/.server/account/step-up.server";
import { accountState } from "~/.server/account/account-state.server";
import { primarySubscription } from "~/.server/billing/subscriptions.server";
import { requireSession } from "~/.server/auth/session";
import { formAction } from "~/.server/forms/action.server";
import { BrowserSessions } from "~/components/account/BrowserSessions";
import { ChangePasswordForm } from "~/components/account/ChangePasswordForm";
import { DeleteAccountForm } from "~/components/account/DeleteAccountForm";
import { DesktopDevices } from "~/components/account/DesktopDevices";
import { LicenceFiles } from "~/components/account/LicenceFiles";
import {
  isLicenceFileRefusal,
  LICENCE_FILE_REFUSALS,
  licenceFilesOf,
} from "~/.server/desktop/licence-files.server";
import { answerFor } from "~/components/account/form-answer";
import { StepUpForm } from "~/components/account/StepUpForm";
import { PageHeader } from "~/components/PageHeader";
import { Section } from "~/components/Section";
import { TwoFactorSettings } from "~/components/TwoFactorSettings";
import { pageMeta } from "~/lib/meta";
import { planLabel } from "~/lib/plans";
import type { Route } from "./+types/security";

/** Passes an action's Retry-After (attempt limits) on to the document response. */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const meta: Route.MetaFunction = () =>
  pageMeta(
    "Security",
    "Password, signed-in browsers and desktop devices, your data and your account.",
  );

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSession(context);
  // The subscriptions the account guard read with the session (decision 0035).
  const sub = primarySubscription((await accountState(context)).subscriptions);
  const [browsers, devices, files, twoFactorEnabled, withPassword, stepUp] = await Promise.all([
    listBrowserSessions(request, session.id),
    listDesktopDevices(session.user.id),
    licenceFilesOf(session.user.id),
    isTwoFactorEnabled(session.user.id),
    hasPassword(session.user.id),
    stepUpState(session),
  ]);
  // The emailed link that confirms deleting an account without a password.
  const deleteToken = new URL(request.url).searchParams.get("delete");
  // A licence file refused (its form posts to /account/licence-file): the words for its code.
  const licenceCode = new URL(request.url).searchParams.get("licence");
  return {
    email: session.user.email,
    twoFactorEnabled,
    hasPassword: withPassword,
    stepUp,
    browsers,
    devices,
    licenceRefusal: isLicenceFileRefusal(licenceCode) ? LICENCE_FILE_REFUSALS[licenceCode] : null,
    licenceFiles: files.map((file) => ({
      id: file.id,
      name: file.name,
      expiresAt: file.expiresAt.toISOString(),
    })),
    deleteToken: deleteToken && deleteToken.length <= 200 ? deleteToken : null,
    // A plan being paid for: deleting the account cancels it at once (cancelEverythingFor).
    paidPlan:
      sub && STATUS_RULES[sub.status].manageable
        ? { name: planLabel(sub.planId), paidUntil: sub.currentEnd?.toISOString() ?? null }
        : null,
  };
}

const intentSchema = z.discriminatedUnion("intent", [
  stepUpSchema,
  revokeDeviceSchema,
  revokeSessionSchema,
  revokeOtherSessionsSchema,
  changePasswordSchema,
  deleteAccountSchema,
  confirmDeletionSchema,
]);

export async function action(args: Route.ActionArgs) {
  const { request } = args;
  return formAction(args, intentSchema, async (input, session) => {
    switch (input.intent) {
      case "step-up":
        return confirmIdentity(request, session, input);
      case "revoke-device":
        return signOutDevice(session, input);
      case "revoke-session":
        return signOutBrowser(request, session, input);
      case "revoke-other-sessions":
        return signOutOtherBrowsers(request, session, input);
      case "change-password":
        return changePassword(request, session, input);
      case "delete-account":
        return deleteAccount(request, session, input);
      case "confirm-delete":
        return confirmDeletion(request, session, input);
    }
  });
}

export default function SecurityPage({ loaderData, actionData }: Route.ComponentProps) {
  const answer = (...intents: string[]) => answerFor(actionData, ...intents);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Security"
        lead="Your password, where you are signed in, your data and your account."
      />
      <StepUpForm state={loaderData.stepUp} answer={answer("step-up")} />
      <DesktopDevices devices={loaderData.devices} answer={answer("revoke-device")} />
      <LicenceFiles files={loaderData.licenceFiles} refusal={loaderData.licenceRefusal} />
      <BrowserSessions
        browsers={loaderData.browsers}
        answer={answer("revoke-session", "revoke-other-sessions")}
      />
      <ChangePasswordForm hasPassword={loaderData.hasPassword} answer={answer("change-password")} />
      <Section id="two-factor" title="Two-factor authentication">
        <TwoFactorSettings enabled={loaderData.twoFactorEnabled} />
      </Section>
      <Section id="data" title="Your data">
        <p className="text-slate-300">Download everything we store about you, as JSON.</p>
        <a href="/account/security/export" className="btn-secondary mt-4" download>
          Export my data
        </a>
      </Section>
      <DeleteAccountForm
        hasPassword={loaderData.hasPassword}
        email={loaderData.email}
        confirmToken={loaderData.deleteToken}
        paidPlan={loaderData.paidPlan}
        answer={answer("delete-account", "confirm-delete")}
      />
    </div>
  );
}
