/** The operator's alert mails (issue 33, point 3): one event at once, or the day's digest. */
import { site } from "~/config/site";
import { formatDateTime } from "~/lib/dates";
import type { MailMessage } from "./mailer.server";
import { renderTo } from "./templates";

const SETTINGS = "/admin/settings";

export function alertMessage(input: {
  to: string;
  name: string;
  /** The kind, in words ("A customer opens a support ticket"). */
  kind: string;
  summary: string;
  url: string;
}): MailMessage {
  return renderTo(input, {
    subject: `[${site.product.name} admin] ${input.summary}`,
    paragraphs: [input.summary, `You get this because you chose “${input.kind}” at once.`],
    action: { label: "Open it in the admin area", url: input.url },
    footnote: `Choose your alerts under ${SETTINGS} in the admin area.`,
  });
}

export function alertDigestMessage(input: {
  to: string;
  name: string;
  siteUrl: string;
  alerts: { summary: string; path: string; createdAt: Date }[];
}): MailMessage {
  const count = input.alerts.length;
  return renderTo(input, {
    subject: `[${site.product.name} admin] ${count === 1 ? "1 alert" : `${count} alerts`} since the last digest`,
    paragraphs: [
      `What happened since your last digest, oldest first:`,
      ...input.alerts.map(
        (alert) =>
          `${formatDateTime(alert.createdAt)}: ${alert.summary} ${input.siteUrl}${alert.path}`,
      ),
    ],
    action: { label: "Open the admin area", url: `${input.siteUrl}/admin` },
    footnote: `Choose your alerts under ${SETTINGS} in the admin area.`,
  });
}
