/**
 * npm run release:publish -- --version 1.4.0 --mac Pinout-1.4.0.dmg --windows Pinout-Setup-1.4.0.exe
 *     [--file Pinout-1.4.0-mac.zip --file Pinout-Setup-1.4.0.exe.blockmap --file x.app.tar.gz.sig …]
 *     [--file Pinout1.4.0-1.3.0.delta]   (a Sparkle delta from 1.3.0, named as generate_appcast does)
 *     [--file Pinout-1.4.0-full.nupkg --file Pinout-1.4.0-delta.nupkg]   (Velopack packages; the
 *     OS, arch and app id are read from each package's manifest)
 *     [--notes notes.md | --notes "text"] [--notes-lang hi=notes.hi.md …] (notes in other languages:
 *     Sparkle shows the Mac's language) [--channel beta] [--rollout 10] [--critical]
 *     [--informational] [--minimum-autoupdate-version 2.0.0]   (Sparkle: shown, not installed;
 *     apps below that version ask before updating)
 *     [--minimum-system-version 12.0] [--site https://pinout.dev --token pinout_admin_…]
 *
 * With --site and --token (or PINOUT_SITE / PINOUT_ADMIN_TOKEN), it publishes through the running
 * site's admin API: no downtime, and the site's own storage (disk or S3) receives the files.
 * Without them it writes to the database and storage directly; on the embedded database that
 * takes the database lock, so the site must be stopped.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";
import { runMain } from "./lib/run-main";

const USAGE =
  "usage: npm run release:publish -- --version X.Y.Z [--mac file.dmg] [--windows file.exe] [--file other …] [--notes file.md|text] [--notes-lang TAG=file.md|text …] [--channel stable|beta] [--rollout 0-100] [--critical] [--informational] [--minimum-autoupdate-version X.Y.Z] [--minimum-system-version 12.0] [--site URL --token TOKEN]";

interface Options {
  version: string;
  channel: "stable" | "beta";
  notes: string;
  notesTranslations: Record<string, string>;
  critical: boolean;
  informational: boolean;
  minimumAutoupdateVersion?: string;
  minimumSystemVersion?: string;
  rolloutPercent: number;
  files: string[];
}

/** Signatures after the files they sign. */
function ordered(files: string[]): string[] {
  return [...files].sort((a, b) => Number(a.endsWith(".sig")) - Number(b.endsWith(".sig")));
}

async function viaApi(site: string, token: string, options: Options): Promise<number> {
  const base = site.replace(/\/+$/, "");
  const headers = { Authorization: `Bearer ${token}` };
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await response.json().catch(() => null)) as {
      error?: string;
      id?: string;
    } | null;
    if (!response.ok) throw new Error(json?.error ?? `${method} ${url}: HTTP ${response.status}`);
    return json;
  };
  const draft = await call("POST", "/api/admin/releases", {
    version: options.version,
    channel: options.channel,
    notes: options.notes,
    notesTranslations: options.notesTranslations,
    critical: options.critical,
    informational: options.informational,
    minimumAutoupdateVersion: options.minimumAutoupdateVersion,
    minimumSystemVersion: options.minimumSystemVersion,
  });
  const id = draft?.id;
  if (!id) throw new Error("the site did not return the new release");
  try {
    for (const file of ordered(options.files)) {
      const size = fs.statSync(file).size;
      const response = await fetch(
        `${base}/api/admin/releases/${id}/files/${encodeURIComponent(path.basename(file))}`,
        {
          method: "PUT",
          headers: { ...headers, "Content-Length": String(size) },
          body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
          duplex: "half",
        } as RequestInit,
      );
      const json = (await response.json().catch(() => null)) as { error?: string } | null;
      if (!response.ok)
        throw new Error(`${path.basename(file)}: ${json?.error ?? `HTTP ${response.status}`}`);
      console.log(`  uploaded ${path.basename(file)} (${size} bytes)`);
    }
    await call("POST", `/api/admin/releases/${id}`, {
      action: "publish",
      rolloutPercent: options.rolloutPercent,
    });
  } catch (error) {
    await call("DELETE", `/api/admin/releases/${id}`).catch(() => {});
    throw error;
  }
  console.log(`published ${options.version} (${options.channel}) on ${base}`);
  return 0;
}

async function direct(options: Options): Promise<number> {
  const { closeDatabase, initDatabase } = await import("~/.server/db");
  const { publishRelease } = await import("~/.server/releases/manage.server");
  const { isAppError } = await import("~/.server/http/errors");
  await initDatabase();
  try {
    const release = await publishRelease({
      version: options.version,
      channel: options.channel,
      notes: options.notes,
      notesTranslations: options.notesTranslations,
      critical: options.critical,
      informational: options.informational,
      minimumAutoupdateVersion: options.minimumAutoupdateVersion,
      minimumSystemVersion: options.minimumSystemVersion,
      rolloutPercent: options.rolloutPercent,
      files: options.files.map((filePath) => ({ filePath })),
    });
    console.log(`published ${release.version} (${release.channel})`);
    for (const asset of release.assets) {
      console.log(
        `  ${asset.platform} ${asset.arch} ${asset.kind}${asset.fromVersion ? ` from ${asset.fromVersion}` : ""}${asset.updater ? ` (${asset.updater})` : ""}: ${asset.fileName}  ${asset.sizeBytes} bytes  sha256 ${asset.sha256}`,
      );
    }
    return 0;
  } catch (error) {
    if (isAppError(error)) {
      console.error(`error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

/** A file's text when the value names a file, else the value itself. */
function fileOrText(value: string): string {
  return value && fs.existsSync(value) && fs.statSync(value).isFile()
    ? fs.readFileSync(value, "utf8")
    : value;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        version: { type: "string" },
        mac: { type: "string" },
        windows: { type: "string" },
        file: { type: "string", multiple: true },
        notes: { type: "string" },
        "notes-lang": { type: "string", multiple: true },
        channel: { type: "string", default: "stable" },
        rollout: { type: "string", default: "100" },
        critical: { type: "boolean", default: false },
        informational: { type: "boolean", default: false },
        "minimum-autoupdate-version": { type: "string" },
        "minimum-system-version": { type: "string" },
        site: { type: "string" },
        token: { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.version) {
    console.error(`error: --version is required\n${USAGE}`);
    return 2;
  }
  if (values.channel !== "stable" && values.channel !== "beta") {
    console.error("error: --channel must be stable or beta");
    return 2;
  }
  const rolloutPercent = Number(values.rollout);
  if (!Number.isInteger(rolloutPercent) || rolloutPercent < 0 || rolloutPercent > 100) {
    console.error("error: --rollout must be a whole percentage from 0 to 100");
    return 2;
  }
  const files = [values.mac, values.windows, ...(values.file ?? [])].filter(
    (file): file is string => Boolean(file),
  );
  for (const file of files) {
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      console.error(`error: no such file: ${file}`);
      return 1;
    }
  }
  const notes = fileOrText(values.notes ?? "");
  const notesTranslations: Record<string, string> = {};
  for (const entry of values["notes-lang"] ?? []) {
    const at = entry.indexOf("=");
    if (at <= 0) {
      console.error(`error: --notes-lang takes TAG=file.md or TAG=text, such as hi=notes.hi.md`);
      return 2;
    }
    notesTranslations[entry.slice(0, at)] = fileOrText(entry.slice(at + 1));
  }
  const options: Options = {
    version: values.version,
    channel: values.channel,
    notes,
    notesTranslations,
    critical: values.critical,
    informational: values.informational,
    minimumAutoupdateVersion: values["minimum-autoupdate-version"],
    minimumSystemVersion: values["minimum-system-version"],
    rolloutPercent,
    files,
  };
  const site = values.site ?? process.env.PINOUT_SITE;
  const token = values.token ?? process.env.PINOUT_ADMIN_TOKEN;
  if (site && token) return viaApi(site, token, options);
  if (site || token) {
    console.error(
      "error: give both --site and --token (or neither, to write to the database directly)",
    );
    return 2;
  }
  return direct(options);
}

runMain(main);
