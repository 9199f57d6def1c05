import { site } from "~/config/site";
import { escapeHtml } from "~/lib/escape";
import type { MailMessage } from "./mailer.server";

interface Content {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footnote?: string;
}

/**
 * Every paragraph may break a long word or link anywhere: a 300-character sign-in link would
 * otherwise widen the mail past its 560 px column (1,707 px in one mail client, issue 34).
 */
const WRAP = "overflow-wrap:anywhere;word-break:break-word";

/** One layout for every message: plain text first, and the same words as simple HTML. */
function render(content: Content): MailMessage {
  const { product, company } = site;
  const lines = [content.greeting, "", ...content.paragraphs.flatMap((p) => [p, ""])];
  if (content.action) lines.push(`${content.action.label}: ${content.action.url}`, "");
  if (content.footnote) lines.push(content.footnote, "");
  lines.push(
    `— ${product.name}`,
    `${company.legalName}, ${company.address.city}`,
    company.supportEmail,
  );

  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#0f172a;font-family:system-ui,sans-serif;color:#e2e8f0">
<div style="max-width:560px;margin:0 auto;padding:32px 24px">
<p style="font-size:20px;font-weight:700;color:#4ade80;margin:0 0 24px">${escapeHtml(product.name)}</p>
<p style="${WRAP}">${escapeHtml(content.greeting)}</p>
${content.paragraphs.map((p) => `<p style="line-height:1.5;${WRAP}">${escapeHtml(p)}</p>`).join("\n")}
${
  content.action
    ? `<p style="margin:28px 0;${WRAP}"><a href="${escapeHtml(content.action.url)}" style="background:#22c55e;color:#0f172a;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#94a3b8;overflow-wrap:anywhere;word-break:break-all">Or paste this link into your browser: ${escapeHtml(content.action.url)}</p>`
    : ""
}
${content.footnote ? `<p style="font-size:13px;color:#94a3b8;${WRAP}">${escapeHtml(content.footnote)}</p>` : ""}
<p style="font-size:12px;color:#64748b;margin-top:32px;${WRAP}">${escapeHtml(company.legalName)}, ${escapeHtml(company.address.city)} · ${escapeHtml(company.supportEmail)}</p>
</div></body></html>`;
  return { to: content.to, subject: content.subject, text: lines.join("\n"), html };
}

const hello = (name: string) => (name ? `Hello ${name},` : "Hello,");

/** A message to a person: sent to their address, greeted by their name. */
export function renderTo(
  recipient: { to: string; name: string },
  content: Omit<Content, "to" | "greeting">,
): MailMessage {
  return render({ to: recipient.to, greeting: hello(recipient.name), ...content });
}

export function verifyEmailMessage(input: { to: string; name: string; url: string }): MailMessage {
  return renderTo(input, {
    subject: `Confirm your email for ${site.product.name}`,
    paragraphs: [
      `Confirm that ${input.to} is your email address to finish setting up your ${site.product.name} account.`,
    ],
    action: { label: "Confirm email address", url: input.url },
    footnote: "The link expires in 1 hour. If you did not create an account, ignore this message.",
  });
}

export function resetPasswordMessage(input: {
  to: string;
  name: string;
  url: string;
}): MailMessage {
  return renderTo(input, {
    subject: `Reset your ${site.product.name} password`,
    paragraphs: [
      "Someone asked to reset the password of your account. If it was you, choose a new password here:",
    ],
    action: { label: "Choose a new password", url: input.url },
    footnote:
      "The link expires in 1 hour and works once. If you did not ask, ignore this message: your password stays the same.",
  });
}

export function passwordChangedMessage(input: { to: string; name: string }): MailMessage {
  return renderTo(input, {
    subject: `Your ${site.product.name} password was changed`,
    paragraphs: [
      "The password of your account was just changed.",
      `If this was not you, reset your password now and write to ${site.company.supportEmail}.`,
    ],
  });
}

export function wrongSecondStepCodesMessage(input: { to: string; name: string }): MailMessage {
  return renderTo(input, {
    subject: `Wrong two-factor codes for your ${site.product.name} account`,
    paragraphs: [
      "Someone entered your password correctly and then several wrong two-factor codes. We stopped that sign-in; after ten wrong codes in a row, two-factor sign-in to your account pauses for 15 minutes.",
      `If this was not you, your password is known to someone else: change it on Account → Security, and write to ${site.company.supportEmail} if you need help. Your authenticator app kept them out.`,
    ],
  });
}

export function newDesktopSignInMessage(input: {
  to: string;
  name: string;
  device: string;
  when: Date;
}): MailMessage {
  return renderTo(input, {
    subject: `New sign-in to ${site.product.name} on ${input.device}`,
    paragraphs: [
      `The ${site.product.name} desktop app on "${input.device}" signed in to your account on ${input.when.toUTCString()}.`,
      "If this was not you, sign that device out from Account → Security and change your password.",
    ],
  });
}

export function accountDeletedMessage(input: { to: string; name: string }): MailMessage {
  return renderTo(input, {
    subject: `Your ${site.product.name} account was deleted`,
    paragraphs: [
      "Your account and its personal data have been erased, and every device was signed out.",
      "Tax invoices already issued are kept as the law requires. Thank you for using our app.",
    ],
  });
}

/** To the address in use now, before an email change is applied: a stolen session cannot hide it. */
export function confirmEmailChangeMessage(input: {
  to: string;
  name: string;
  newEmail: string;
  url: string;
}): MailMessage {
  return renderTo(input, {
    subject: `Confirm the new email address of your ${site.product.name} account`,
    paragraphs: [
      `Someone asked to change the email address of your account from ${input.to} to ${input.newEmail}.`,
      `If it was you, confirm here. We then send a last link to ${input.newEmail}, and the change is made when you open that one.`,
    ],
    action: { label: "Confirm the change", url: input.url },
    footnote: `The link expires in 1 hour. If it was not you, do not open it: change your password and write to ${site.company.supportEmail}.`,
  });
}

/** For an account without a password: the link is the proof that the owner wants it deleted. */
export function confirmAccountDeletionMessage(input: {
  to: string;
  name: string;
  url: string;
}): MailMessage {
  return renderTo(input, {
    subject: `Confirm deleting your ${site.product.name} account`,
    paragraphs: [
      "Someone asked to delete your account. If it was you, open this link in the browser where you are signed in, and confirm.",
      "Deleting erases your profile, devices, usage and messages, and cannot be undone.",
    ],
    action: { label: "Delete my account", url: input.url },
    footnote:
      "The link expires in 1 hour and works once. If you did not ask, ignore this message: your account stays as it is.",
  });
}
