/**
 * The mailbox an address reaches, for "one trial per person" (issue 36, point 2): the same
 * mailbox written differently is one mailbox. Addresses compare case-insensitively; Gmail also
 * ignores dots in the local part; these providers deliver `name+tag@` to `name@`. Elsewhere a
 * `+` is part of the name, as the provider may treat it so.
 */
const IGNORES_DOTS = new Set(["gmail.com", "googlemail.com"]);
const IGNORES_PLUS_TAGS = new Set([
  "gmail.com",
  "googlemail.com",
  "msn.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "proton.me",
  "protonmail.com",
  "pm.me",
  "fastmail.com",
  "zoho.com",
  "zohomail.in",
  "yandex.com",
]);

/**
 * Microsoft's consumer mail answers on many country domains (outlook.in, hotmail.co.uk,
 * live.com.au, …), all delivering `name+tag@` to `name@` (issue 53, finding 11): a list of the
 * `.com` names alone let every other country's variant count as a new mailbox. The first label
 * names the service, the rest is a country's suffix (`fr`, `co.in`, `com.au`) or `com`.
 */
const MICROSOFT_CONSUMER = /^(?:outlook|hotmail|live)\.(?:com|[a-z]{2}|(?:co|com)\.[a-z]{2})$/;

function ignoresPlusTags(domain: string): boolean {
  return IGNORES_PLUS_TAGS.has(domain) || MICROSOFT_CONSUMER.test(domain);
}

export function normalizeMailbox(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf("@");
  if (at <= 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  if (domain === "googlemail.com") domain = "gmail.com";
  if (ignoresPlusTags(domain)) local = local.split("+")[0] ?? local;
  if (IGNORES_DOTS.has(domain)) local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}
