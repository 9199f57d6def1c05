import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { type ForeignCurrency, isForeignCurrency } from "~/lib/money";

const TRUST_PROXY_KEYWORDS = new Set(["loopback", "linklocal", "uniquelocal"]);

/** One entry of TRUST_PROXY: an IP, a CIDR block or one of express's named ranges. */
function isProxyEntry(entry: string): boolean {
  if (TRUST_PROXY_KEYWORDS.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  if (rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return Number.isInteger(bits) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

/** true/false/1/0; empty means the default. */
const flag = z.preprocess(
  emptyToUndefined,
  z
    .enum(["true", "false", "1", "0"], { error: "must be true, false, 1 or 0" })
    .default("false")
    .transform((value) => value === "true" || value === "1"),
);

/**
 * The sandbox's fixed keys: documented, public, and useless against the real Razorpay (whose
 * keys are rzp_test_/rzp_live_ with a different secret).
 */
export const SANDBOX_KEYS = {
  RAZORPAY_KEY_ID: "rzp_test_Sandbox000000001",
  RAZORPAY_KEY_SECRET: "sandbox_key_secret_not_for_production",
  RAZORPAY_WEBHOOK_SECRET: "sandbox_webhook_secret_not_for_production",
} as const;

export const envSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  /** Unset: http://localhost:<PORT> (or http://<HOST>:<PORT> for a non-loopback HOST). */
  SITE_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
  ),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return false as const;
        if (/^\d+$/.test(value)) return Number(value);
        const entries = value.split(",").map((entry) => entry.trim());
        const bad = entries.filter((entry) => !isProxyEntry(entry));
        if (bad.length > 0) {
          ctx.addIssue({
            code: "custom",
            message: `not an IP, CIDR block, hop count or one of loopback/linklocal/uniquelocal: ${bad.join(", ")}`,
          });
          return z.NEVER;
        }
        return entries;
      }),
  ),
  /** Signs sessions and tokens. Unset with the embedded database: generated once into DATA_DIR. */
  BETTER_AUTH_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  /**
   * Encrypts the signing keys stored in the database (licences, updates). Unset: generated once
   * into DATA_DIR on the embedded database, derived from BETTER_AUTH_SECRET with PostgreSQL.
   */
  KEYS_ENCRYPTION_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
  /** Verified users with one of these emails are admins. */
  /**
   * /metrics (Prometheus text): readable with `Authorization: Bearer <METRICS_TOKEN>` or from an
   * address in METRICS_ALLOWED_IPS; with neither set it does not exist (404).
   */
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z.string().min(24, { error: "must be at least 24 characters (a random secret)" }).optional(),
  ),
  METRICS_ALLOWED_IPS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((address) => address.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.union([z.ipv4(), z.ipv6()], {
          error: "must be a comma-separated list of IP addresses (127.0.0.1, ::1)",
        }),
      ),
    ),
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ error: "must be a comma-separated list of email addresses" }))),
  GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Sign-in attempts allowed per client IP per minute (sign-up and reset share the limit). */
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(5),
  /** Google Analytics 4 measurement id (G-XXXXXXX): events are also sent there after consent. */
  GA_MEASUREMENT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^G-[A-Z0-9]{4,20}$/, { error: "must look like G-XXXXXXXXXX" })
      .optional(),
  ),
  /** Requests per client (IPv6 by /64) per minute to /api/desktop/* and /api/functions/*. */
  API_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(120),
  /**
   * Update checks per client (IPv6 by /64) per minute to /updates/*: an installed app checks at
   * most every few hours, so 600 a minute lets a few thousand installs share one NAT address.
   */
  UPDATES_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /**
   * Issue 58: the most byte ranges one request for a release file may ask for (electron-updater's
   * differential download asks for up to 1,000 changed blocks at once); a request for more gets
   * the whole file.
   */
  DOWNLOAD_MAX_RANGES: z.coerce.number().int().min(1).max(5000).default(1000),
  /**
   * Issue 58, point 5: how often (ms) each process adds the API limits' counts (update checks,
   * the desktop API, callable functions) to the shared ones on PostgreSQL; no request writes.
   * Across instances a limit can be passed by what the others admit in this long.
   */
  API_COUNT_SYNC_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /** Feedback messages accepted per client IP per hour. */
  FEEDBACK_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(5),
  /** smtp(s)://user:pass@host:port; unset, mail is written to DATA_DIR/mail as .eml files, each with a plain .txt copy. */
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().optional()),
  /**
   * SMTP time-outs (ms): connecting, the server's greeting, and silence on an open connection.
   * Seconds, not nodemailer's ten minutes: a mail server that hangs holds one mail slot briefly,
   * then the mail is retried with back-off.
   */
  SMTP_CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SMTP_GREETING_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  SMTP_SOCKET_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Turns on /ops/error-probe, a route that fails on purpose so error reporting can be checked. */
  ERROR_PROBE: z
    .enum(["true", "false", "1", "0", ""])
    .default("false")
    .transform((value) => value === "true" || value === "1"),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(4_500),
  /** `sandbox`: the built-in Razorpay-compatible sandbox; `razorpay`: the real Razorpay. */
  PAYMENTS_PROVIDER: z.enum(["sandbox", "razorpay"]).default("sandbox"),
  /** Live or test keys from Razorpay's dashboard; in sandbox mode fixed defaults apply. */
  RAZORPAY_KEY_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^rzp_(test|live)_[A-Za-z0-9]{6,40}$/, {
        error: "must look like rzp_test_… or rzp_live_…",
      })
      .optional(),
  ),
  RAZORPAY_KEY_SECRET: z.preprocess(emptyToUndefined, z.string().min(8).max(200).optional()),
  /** The secret entered with the webhook URL in Razorpay's dashboard (not the key secret). */
  RAZORPAY_WEBHOOK_SECRET: z.preprocess(emptyToUndefined, z.string().min(8).max(200).optional()),
  /** Razorpay's REST base URL (without /v1); a local fake in tests. */
  RAZORPAY_API_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  ),
  /** Where the browser loads checkout.js from. */
  RAZORPAY_CHECKOUT_URL: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  ),
  /** `1` allows the sandbox off this machine (SITE_URL or HOST): a public demo that sells nothing. */
  PAYMENTS_SANDBOX_PUBLIC: flag,
  /**
   * The foreign currencies a buyer outside India may pay in (issue 56, decision 0060): a
   * comma-separated list of USD and EUR, or empty for rupees only. Offered only while
   * GST_LUT_ARN holds a Letter of Undertaking for the current financial year.
   */
  SELL_ABROAD_CURRENCIES: z
    .string()
    .default("USD")
    .transform((value, ctx) => {
      const codes = [
        ...new Set(
          value
            .split(",")
            .map((code) => code.trim().toUpperCase())
            .filter(Boolean),
        ),
      ];
      const unknown = codes.filter((code) => !isForeignCurrency(code));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `must list USD or EUR (comma-separated), not ${unknown.join(", ")}`,
        });
        return z.NEVER;
      }
      return codes as ForeignCurrency[];
    }),
  /**
   * The ARN of the Letter of Undertaking (Form GST RFD-11) filed for GST_LUT_FINANCIAL_YEAR: an
   * export invoice prints it. Without a valid one for the current year nothing is sold abroad.
   */
  GST_LUT_ARN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((value) => value.trim().toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}[0-9A-Z]{13}$/, { error: "must be the 15-character ARN" }))
      .optional(),
  ),
  /** The financial year the LUT is for, as "2026-27". */
  GST_LUT_FINANCIAL_YEAR: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{4}-\d{2}$/, { error: 'must be a financial year such as "2026-27"' })
      .refine(
        (value) => (Number(value.slice(0, 4)) + 1) % 100 === Number(value.slice(5)),
        'must be two consecutive years, such as "2026-27"',
      )
      .optional(),
  ),
  /**
   * Server processes sharing the port (node:cluster), one per core at most: a process renders one
   * page at a time. More than one needs DATABASE_URL and the real Razorpay: the embedded database
   * and the payment sandbox each belong to one process.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Run the background job worker (webhooks, mail, reminders) in this process. */
  JOBS_WORKER: flag.default(true),
  /**
   * How long a claimed job stays this worker's without renewal (s); a running job renews it every
   * third of this, so only a process that stopped (killed, frozen) loses its jobs to another.
   */
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * How often download, update-check and app-version counts kept in memory are written (ms): one
   * upsert per counter per interval, and at shutdown. A process killed outright (kill -9) loses at
   * most this much counting (docs/decisions/0030).
   */
  STATS_FLUSH_MS: z.coerce.number().int().min(50).max(300_000).default(5_000),
  /**
   * How long raw analytics events are kept (months). A nightly job sums each India day into
   * `analytics_daily` first, so the cockpit keeps its history; the privacy policy says so.
   */
  ANALYTICS_RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(13),
  /** Largest release file an upload may send, in MB (installers are a few hundred MB). */
  RELEASE_UPLOAD_MAX_MB: z.coerce.number().int().min(1).max(10_240).default(1024),
  /** Release files in S3-compatible storage instead of DATA_DIR/releases (with the S3_* below). */
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().min(3).max(63).optional()),
  /** The S3 endpoint for non-AWS storage (MinIO, R2, a local test server); unset for AWS. */
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }).optional(),
  ),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Path-style URLs (bucket in the path), which MinIO and most local servers need. */
  S3_FORCE_PATH_STYLE: flag,
  /**
   * Issue 57, heartbeats: a signed-in app checks in every DEVICE_CHECK_IN_HOURS (the check-in's
   * answer says so), and a machine silent for DEVICE_SILENT_DAYS is dead: its device slot is
   * free for another machine, and it comes back only while one is free. Days, not minutes: a
   * workbench may sit unused over a holiday.
   */
  DEVICE_CHECK_IN_HOURS: z.coerce.number().int().min(1).max(168).default(6),
  DEVICE_SILENT_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  /**
   * Issue 57, floating seats: a machine's hold on a team's floating seat lasts this long past its
   * last check-in (renewed by each), unless the app gives it back (quitting, signing out). At least
   * two check-ins long, so one missed check-in never loses a running machine its seat.
   */
  FLOATING_LEASE_HOURS: z.coerce.number().int().min(1).max(336).default(12),
  /** Days of the free Pro trial a new customer may start without a card; 0 offers none. */
  TRIAL_DAYS: z.coerce.number().int().min(0).max(90).default(14),
  /**
   * Days of Pro a customer earns when someone they referred pays and keeps paying past the refund
   * window (issue 36, point 9); 0 turns referral links off.
   */
  REFERRAL_REWARD_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** The coupon code a visitor who follows a referral link is offered (made on /admin/coupons). */
  REFERRAL_COUPON: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9-]{3,32}$/, "a coupon code: 3–32 letters, digits or hyphens")
      .transform((code) => code.toUpperCase())
      .optional(),
  ),
  /**
   * Where backups are written (a folder, best on another disk or synced off the machine):
   * `npm run backup`, "Back up now" in /admin/backups and the schedule. Unset: no backups.
   */
  BACKUP_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** A backup every this many hours (needs BACKUP_DIR); 0, the default, takes none on its own. */
  BACKUP_INTERVAL_HOURS: z.coerce.number().int().min(0).max(168).default(0),
  /** How many backups BACKUP_DIR keeps (none past 30 days); older ones go after each new one. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(14),
  /**
   * An S3-compatible bucket every backup is also copied to, off this machine (with the S3_*
   * endpoint and credentials); it keeps the same backups as BACKUP_DIR. Needs BACKUP_DIR.
   */
  BACKUP_S3_BUCKET: z.preprocess(emptyToUndefined, z.string().min(3).max(63).optional()),
  /** Where in that bucket: a folder-like prefix ending in "/" (or empty for the top). */
  BACKUP_S3_PREFIX: z
    .string()
    .max(200)
    .regex(/^$|^[A-Za-z0-9!_.*'()-][A-Za-z0-9!_.*'()/-]*\/$/, {
      error: 'must be empty or a prefix like "backups/" (no leading "/", ending in "/")',
    })
    .default("backups/"),
  /**
   * An age public key (age1…): backups are encrypted to it, and only its private key, which the
   * operator keeps off this machine, can read them (`npm run restore -- --identity <file>`).
   */
  BACKUP_AGE_RECIPIENT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58,}$/, {
        error:
          "must be an age public key (age1…, from `age-keygen` or `npm run backup -- --new-key`)",
      })
      .optional(),
  ),
  /**
   * Signs backups (decision 0057): restore refuses a file it did not sign. Unset: derived from
   * BETTER_AUTH_SECRET when that is set, else generated into DATA_DIR/backup-signing-secret,
   * which no backup holds: keep a copy off this machine to restore elsewhere.
   */
  BACKUP_SIGNING_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, "must be at least 32 characters").optional(),
  ),
});

export type Env = Omit<
  z.infer<typeof envSchema>,
  "SITE_URL" | "RAZORPAY_KEY_ID" | "RAZORPAY_KEY_SECRET" | "RAZORPAY_WEBHOOK_SECRET"
> & {
  /** Always set after parsing: given, or derived from HOST and PORT. */
  SITE_URL: string;
  /**
   * Origins whose browser requests are accepted (Better Auth, our cross-site check): SITE_URL's,
   * and without an explicit SITE_URL both loopback spellings of the local port.
   */
  TRUSTED_ORIGINS: string[];
  /** Always set after parsing: given, or the sandbox's fixed defaults. */
  RAZORPAY_KEY_ID: string;
  RAZORPAY_KEY_SECRET: string;
  RAZORPAY_WEBHOOK_SECRET: string;
};

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses an environment; the error message names every wrong variable. */
/** Whether a URL's host is this machine only: localhost, 127.0.0.1 (any 127/8) or ::1. */
export function isLoopbackUrl(url: string): boolean {
  const hostname = new URL(url).hostname.toLowerCase();
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === "[::1]"
  );
}

/** Whether a listening address is this machine's only (not 0.0.0.0 or ::, which are every one). */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`,
    );
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const data = result.data;
  if (Boolean(data.GOOGLE_CLIENT_ID) !== Boolean(data.GOOGLE_CLIENT_SECRET)) {
    throw new EnvError(
      "Invalid environment configuration:\n  GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both or neither",
    );
  }
  if (data.DATABASE_URL && !data.BETTER_AUTH_SECRET) {
    throw new EnvError(
      "Invalid environment configuration:\n  BETTER_AUTH_SECRET: required with DATABASE_URL (every instance must share it)",
    );
  }
  const problems: string[] = [];
  if (data.WEB_CONCURRENCY > 1 && !data.DATABASE_URL)
    problems.push(
      "  WEB_CONCURRENCY: more than one process needs DATABASE_URL (the embedded database belongs to one process)",
    );
  if (data.WEB_CONCURRENCY > 1 && data.PAYMENTS_PROVIDER === "sandbox")
    problems.push(
      "  WEB_CONCURRENCY: more than one process needs PAYMENTS_PROVIDER=razorpay (the payment sandbox keeps its state in one process)",
    );
  if (data.BACKUP_S3_BUCKET && !data.BACKUP_DIR)
    problems.push(
      "  BACKUP_S3_BUCKET: copies to a bucket need BACKUP_DIR (each backup is written there first)",
    );
  if (data.BACKUP_INTERVAL_HOURS > 0 && !data.BACKUP_DIR)
    problems.push(
      "  BACKUP_INTERVAL_HOURS: scheduled backups need BACKUP_DIR (where to write them)",
    );
  if (Boolean(data.GST_LUT_ARN) !== Boolean(data.GST_LUT_FINANCIAL_YEAR))
    problems.push(
      "  GST_LUT_ARN, GST_LUT_FINANCIAL_YEAR: set both (the Letter of Undertaking's ARN and the financial year it is for) or neither",
    );
  // A machine must get at least two chances to check in before it is called dead.
  if (data.DEVICE_SILENT_DAYS * 24 < data.DEVICE_CHECK_IN_HOURS * 2)
    problems.push(
      "  DEVICE_SILENT_DAYS: must be at least two check-ins (DEVICE_CHECK_IN_HOURS × 2) long",
    );
  if (data.FLOATING_LEASE_HOURS < data.DEVICE_CHECK_IN_HOURS * 2)
    problems.push(
      "  FLOATING_LEASE_HOURS: must be at least two check-ins (DEVICE_CHECK_IN_HOURS × 2) long",
    );
  if (data.PAYMENTS_PROVIDER === "razorpay") {
    for (const name of [
      "RAZORPAY_KEY_ID",
      "RAZORPAY_KEY_SECRET",
      "RAZORPAY_WEBHOOK_SECRET",
    ] as const)
      if (!data[name]) problems.push(`  ${name}: required with PAYMENTS_PROVIDER=razorpay`);
  }
  const loopback = ["127.0.0.1", "localhost", "0.0.0.0", "::", "::1"].includes(data.HOST);
  const host = loopback ? "localhost" : data.HOST.includes(":") ? `[${data.HOST}]` : data.HOST;
  const siteUrl = data.SITE_URL ?? `http://${host}:${data.PORT}`;
  // The sandbox gives Pro to anyone and its webhook secret is public: only on this machine,
  // whatever the scheme, unless someone says it is a deliberate public demo. Both the address
  // people use (SITE_URL) and the one the server listens on (HOST: 0.0.0.0 and :: reach it from
  // the network whatever SITE_URL says; issue 32, point 13) must be this machine's.
  if (data.PAYMENTS_PROVIDER === "sandbox" && !data.PAYMENTS_SANDBOX_PUBLIC) {
    if (!isLoopbackUrl(siteUrl))
      problems.push(
        `  PAYMENTS_PROVIDER: the payment sandbox would let anyone who reaches ${new URL(siteUrl).origin} get Pro without paying (it is for localhost, 127.0.0.1 and ::1); set PAYMENTS_PROVIDER=razorpay with your keys, or PAYMENTS_SANDBOX_PUBLIC=1 for a deliberate public demo`,
      );
    else if (!isLoopbackHost(data.HOST))
      problems.push(
        `  HOST: the payment sandbox would let anyone on the network who reaches this machine (HOST=${data.HOST}) get Pro without paying; listen on 127.0.0.1 or ::1, set PAYMENTS_PROVIDER=razorpay with your keys, or PAYMENTS_SANDBOX_PUBLIC=1 for a deliberate public demo`,
      );
  }
  if (problems.length > 0)
    throw new EnvError(`Invalid environment configuration:\n${problems.join("\n")}`);
  const sandbox = data.PAYMENTS_PROVIDER === "sandbox";
  const trusted = data.SITE_URL
    ? [new URL(siteUrl).origin]
    : loopback
      ? [`http://localhost:${data.PORT}`, `http://127.0.0.1:${data.PORT}`]
      : [new URL(siteUrl).origin];
  return {
    ...data,
    SITE_URL: siteUrl,
    TRUSTED_ORIGINS: trusted,
    DATA_DIR: path.resolve(data.DATA_DIR),
    BACKUP_DIR: data.BACKUP_DIR ? path.resolve(data.BACKUP_DIR) : undefined,
    RAZORPAY_KEY_ID: data.RAZORPAY_KEY_ID ?? (sandbox ? SANDBOX_KEYS.RAZORPAY_KEY_ID : ""),
    RAZORPAY_KEY_SECRET:
      data.RAZORPAY_KEY_SECRET ?? (sandbox ? SANDBOX_KEYS.RAZORPAY_KEY_SECRET : ""),
    RAZORPAY_WEBHOOK_SECRET:
      data.RAZORPAY_WEBHOOK_SECRET ?? (sandbox ? SANDBOX_KEYS.RAZORPAY_WEBHOOK_SECRET : ""),
  };
}

let cached: Env | undefined;

/** The validated environment of this process, parsed once on first use (at start-up). */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Runs this copy of the server with `source` instead of process.env, before anything reads it:
 * the in-process test harness starts several sites in one process, each with its own
 * configuration and each from its own copy of the server bundle (tests/support/site.ts).
 */
export function configureEnv(source: Record<string, string | undefined>): Env {
  cached = parseEnv(source);
  return cached;
}
