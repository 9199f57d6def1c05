import { type ReactNode, useState } from "react";
import { useRevalidator } from "react-router";
import { renderSVG } from "uqr";
import { disableTwoFactor, enableTwoFactor, verifyTotp } from "~/lib/auth-client";
import { Field, FormMessage, ScriptForm, SubmitButton } from "./forms";

function secretOf(totpURI: string): string {
  return new URL(totpURI).searchParams.get("secret") ?? "";
}

function field(form: FormData, name: string): string {
  return String(form.get(name) ?? "");
}

/** One step's form: its field, its button, and the step's work on submit. */
function StepForm({
  pending,
  submit,
  onSubmit,
  children,
}: {
  pending: boolean;
  submit: { label: string; pendingLabel: string; className: string };
  onSubmit: (form: FormData) => Promise<unknown>;
  children: ReactNode;
}) {
  return (
    <ScriptForm
      className="max-w-md space-y-2"
      onSubmit={async (event) => {
        event.preventDefault();
        await onSubmit(new FormData(event.currentTarget));
      }}
    >
      {children}
      <SubmitButton pending={pending} {...submit} />
    </ScriptForm>
  );
}

function PasswordField({ label }: { label: string }) {
  return (
    <Field label={label} name="password" type="password" autoComplete="current-password" required />
  );
}

/** Turn TOTP two-factor authentication on (QR code, secret, backup codes, first code) or off. */
export function TwoFactorSettings({ enabled }: { enabled: boolean }) {
  const revalidator = useRevalidator();
  const [setup, setSetup] = useState<{ totpURI: string; backupCodes: string[] } | null>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function run<T>(work: () => Promise<T>): Promise<T> {
    setPending(true);
    setMessage(null);
    try {
      return await work();
    } finally {
      setPending(false);
    }
  }

  if (enabled) {
    return (
      <div className="space-y-3">
        <p className="text-slate-300">
          Two-factor authentication is on: signing in asks for a code from your authenticator app.
        </p>
        {message ? <FormMessage tone={message.tone} message={message.text} /> : null}
        <StepForm
          pending={pending}
          submit={{
            label: "Turn off two-factor authentication",
            pendingLabel: "Turning off…",
            className: "btn-secondary",
          }}
          onSubmit={async (form) => {
            const result = await run(() => disableTwoFactor(field(form, "password")));
            if (!result.ok) return setMessage({ tone: "error", text: result.message });
            setMessage({ tone: "success", text: "Two-factor authentication is off." });
            await revalidator.revalidate();
          }}
        >
          <PasswordField label="Password, to turn it off" />
        </StepForm>
      </div>
    );
  }

  if (setup) {
    return (
      <div className="space-y-4">
        <p className="text-slate-300">
          Scan this code with your authenticator app, or type the secret into it.
        </p>
        <div
          className="h-44 w-44 rounded-lg bg-white p-2"
          role="img"
          aria-label="QR code for your authenticator app"
          dangerouslySetInnerHTML={{ __html: renderSVG(setup.totpURI) }}
        />
        <p className="text-sm text-slate-300">
          Secret:{" "}
          <code className="break-all font-mono text-green-300" data-testid="totp-secret">
            {secretOf(setup.totpURI)}
          </code>
        </p>
        <div>
          <p className="text-sm font-semibold text-white">
            Backup codes: keep them somewhere safe. Each works once.
          </p>
          <ul
            className="mt-2 grid max-w-md grid-cols-2 gap-1 font-mono text-sm text-slate-200"
            data-testid="backup-codes"
          >
            {setup.backupCodes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </div>
        {message ? <FormMessage tone={message.tone} message={message.text} /> : null}
        <StepForm
          pending={pending}
          submit={{ label: "Turn on", pendingLabel: "Turning on…", className: "btn-primary" }}
          onSubmit={async (form) => {
            const result = await run(() => verifyTotp(field(form, "code").trim()));
            if (!result.ok) return setMessage({ tone: "error", text: result.message });
            setSetup(null);
            setMessage({ tone: "success", text: "Two-factor authentication is on." });
            await revalidator.revalidate();
          }}
        >
          <Field
            label="Code from the app"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
          />
        </StepForm>
      </div>
    );
  }

  return (
    <div className="space-y-3">
      <p className="text-slate-300">
        Add a code from an authenticator app to your password when you sign in.
      </p>
      {message ? <FormMessage tone={message.tone} message={message.text} /> : null}
      <StepForm
        pending={pending}
        submit={{
          label: "Set up two-factor authentication",
          pendingLabel: "Setting up…",
          className: "btn-primary",
        }}
        onSubmit={async (form) => {
          const result = await run(() => enableTwoFactor(field(form, "password")));
          if (!result.ok || !result.setup) {
            return setMessage({
              tone: "error",
              text: result.ok ? "Could not start the set-up." : result.message,
            });
          }
          setSetup(result.setup);
        }}
      >
        <PasswordField label="Password, to set it up" />
      </StepForm>
    </div>
  );
}
