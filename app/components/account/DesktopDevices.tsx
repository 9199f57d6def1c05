import { Form } from "react-router";
import { usePendingForms } from "~/components/use-form-pending";
import { Section } from "~/components/Section";
import { formatDate } from "~/lib/dates";
import { AnswerMessage } from "./AnswerMessage";
import type { FormAnswer } from "./form-answer";

export interface DesktopDeviceRow {
  id: string;
  name: string;
  platform: string;
  appVersion: string;
  lastSeenAt: string;
  /** Silent past the window (issue 57): its slot is free for another machine. */
  silent: boolean;
}

/** The desktop apps signed in to the account, each with its own "Sign out". */
export function DesktopDevices({
  devices,
  answer,
}: {
  devices: DesktopDeviceRow[];
  answer: FormAnswer | null;
}) {
  const pending = usePendingForms();
  return (
    <Section id="devices" title="Desktop devices">
      <AnswerMessage answer={answer} />
      {devices.length === 0 ? (
        <p className="text-slate-300">No desktop app is signed in to your account.</p>
      ) : (
        <ul className="divide-y divide-slate-800">
          {devices.map((device) => (
            <li key={device.id} className="flex items-center justify-between gap-4 py-3">
              {/* A flex item is as wide as its longest word: the app names its computer. */}
              <div className="min-w-0">
                <p className="font-medium text-white wrap-anywhere">{device.name}</p>
                <p className="text-sm text-slate-400">
                  {device.platform === "mac" ? "macOS" : "Windows"} · app {device.appVersion} · last
                  seen {formatDate(device.lastSeenAt)}
                </p>
                {device.silent ? (
                  <p className="text-sm text-amber-200" data-testid="device-silent">
                    {`Silent since ${formatDate(device.lastSeenAt)}, so its slot was freed for another computer. It gets Pro again when it next checks in, if a slot is free then.`}
                  </p>
                ) : null}
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke-device" />
                <input type="hidden" name="deviceId" value={device.id} />
                <button
                  type="submit"
                  className="btn-secondary"
                  disabled={pending({ intent: "revoke-device", fields: { deviceId: device.id } })}
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
  );
}
