/**
 * Issue 58, points 2-4 and 6: Sparkle deltas and Velopack packages, published with
 * `npm run release:publish` (through the admin API) and served as the updaters read them.
 * - The appcast lists `<sparkle:deltas>` enclosures whose EdDSA signatures verify over the delta
 *   files with the site's update key (the key the apps embed).
 * - Velopack's feed, `/updates/velopack/releases.win.json`, parses with Velopack's
 *   `VelopackAsset` field names and types; every asset is reachable beside it with matching
 *   hashes and size; a staging id outside a release's rollout gets the release before.
 * - Uploads that would fail in the app are refused with the reason: a delta named without its
 *   base or from a newer version, a signature from another key, a package for another version,
 *   OS or app, or no package at all.
 * - The release page says what each updater downloads, and counts delta downloads against the
 *   full update.
 */
import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inRollout } from "~/.server/releases/rollout";
import { formatBytes } from "~/lib/format";
import { getWithCookies, postForm, signUpVerified } from "../support/auth";
import { runScript } from "../support/cli";
import { httpEngine } from "../support/engines";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

function nuspec(version: string, options: { os?: string; id?: string } = {}): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<package xmlns="http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd">
  <metadata>
    <id>${options.id ?? "Pinout"}</id>
    <version>${version}</version>
    <title>Pinout</title>
    <authors>Pinout Labs</authors>
    <description>Pinout</description>
    <mainExe>Pinout.exe</mainExe>
    <os>${options.os ?? "win"}</os>
    <machineArchitecture>x64</machineArchitecture>
    <channel>win</channel>
  </metadata>
</package>`;
}

/** A Velopack package as vpk makes one: a zip with the app's files and its .nuspec. */
function nupkg(version: string, payload: number, options: { os?: string; id?: string } = {}) {
  return Buffer.from(
    zipSync({
      // The manifest is not the first entry: the reader goes by the zip's directory.
      "lib/app/Pinout.exe": randomBytes(payload),
      "[Content_Types].xml": strToU8("<Types/>"),
      "Pinout.nuspec": strToU8(nuspec(version, options)),
    }),
  );
}

interface VelopackAssetJson {
  PackageId: string;
  Version: string;
  Type: string;
  FileName: string;
  SHA1: string;
  SHA256: string;
  Size: number;
  NotesMarkdown: string;
  NotesHtml: string;
}

/** Velopack's serde struct: these fields, these types (manager.rs `VelopackAsset`). */
function expectVelopackAsset(value: unknown): asserts value is VelopackAssetJson {
  expect(Object.keys(value as object).sort()).toEqual(
    [
      "FileName",
      "NotesHtml",
      "NotesMarkdown",
      "PackageId",
      "SHA1",
      "SHA256",
      "Size",
      "Type",
      "Version",
    ].sort(),
  );
  const asset = value as VelopackAssetJson;
  for (const key of ["PackageId", "Version", "FileName", "NotesMarkdown", "NotesHtml"] as const)
    expect(typeof asset[key]).toBe("string");
  expect(["Full", "Delta"]).toContain(asset.Type);
  expect(asset.SHA1).toMatch(/^[0-9A-F]{40}$/);
  expect(asset.SHA256).toMatch(/^[0-9A-F]{64}$/);
  expect(Number.isSafeInteger(asset.Size) && asset.Size > 0).toBe(true);
  expect(asset.FileName).not.toContain("/");
}

describe("Sparkle deltas and Velopack packages", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-deltas-"));
  let server: RunningTestServer;
  let cookie = "";
  let token = "";
  const files = new Map<string, Buffer>();

  const write = (name: string, bytes: Buffer) => {
    files.set(name, bytes);
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const publish = (version: string, names: string[], extra: string[] = []) =>
    runScript(
      "scripts/release-publish.ts",
      [
        "--version",
        version,
        ...names.flatMap((name) => ["--file", path.join(dir, name)]),
        "--notes",
        `Version ${version}: **faster** exports.`,
        "--site",
        server.url,
        "--token",
        token,
        ...extra,
      ],
      {},
    );
  const api = (pathname: string, init: RequestInit = {}) =>
    fetch(`${server.url}${pathname}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    });

  beforeAll(async () => {
    server = await startServerOn(httpEngine(), {
      env: { ADMIN_EMAILS: "ops@example.com", STATS_FLUSH_MS: "200" },
    });
    cookie = await signUpVerified(server, {
      name: "Ops",
      email: "ops@example.com",
      password: "release-deltas-1",
    });
    const created = await postForm(server, "/admin/releases", cookie, {
      intent: "token",
      name: "build",
    });
    token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";

    for (const [version, rollout, delta] of [
      ["2.0.0", "100", false],
      ["2.1.0", "100", true],
      ["2.2.0", "50", true],
    ] as const) {
      const names = [`Pinout-${version}.dmg`, `Pinout-Setup-${version}.exe`];
      write(names[0]!, randomBytes(30_000));
      write(names[1]!, randomBytes(30_000));
      names.push(`Pinout-${version}-mac.zip`, `Pinout-${version}-full.nupkg`);
      write(names[2]!, randomBytes(120_000));
      write(names[3]!, nupkg(version, 100_000));
      if (delta) {
        const from = version === "2.1.0" ? "2.0.0" : "2.1.0";
        names.push(`Pinout${version}-${from}.delta`, `Pinout-${version}-delta.nupkg`);
        write(names[4]!, randomBytes(9_000));
        write(names[5]!, nupkg(version, 8_000));
      }
      const published = await publish(version, names, ["--rollout", rollout]);
      expect(published.output).toContain(`published ${version} (stable)`);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lists each delta in the appcast, signed with the site's update key", async () => {
    const admin = await (await getWithCookies(server, "/admin/releases", cookie)).text();
    const publicKey = /data-testid="sparkle-key">([A-Za-z0-9+/=]+)</.exec(admin)?.[1] ?? "";
    const key = createPublicKey({
      key: {
        kty: "OKP",
        crv: "Ed25519",
        x: Buffer.from(publicKey, "base64").toString("base64url"),
      },
      format: "jwk",
    });
    const xml = await (await fetch(`${server.url}/updates/stable/appcast.xml`)).text();
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      rss: { channel: { item: Record<string, unknown>[] } };
    };
    const items = [doc.rss.channel.item].flat();
    // 2.2.0 is at 50 %: whichever the address gets, 2.1.0's item is in the appcast.
    const item = items.find((entry) => String(entry["sparkle:version"]) === "2.1.0");
    const deltas = [
      (item?.["sparkle:deltas"] as { enclosure: Record<string, string> | Record<string, string>[] })
        .enclosure,
    ].flat();
    expect(deltas).toHaveLength(1);
    const [delta] = deltas;
    expect(delta).toMatchObject({
      url: `${server.url}/releases/2.1.0/Pinout2.1.0-2.0.0.delta`,
      "sparkle:version": "2.1.0",
      "sparkle:deltaFrom": "2.0.0",
      length: "9000",
      type: "application/octet-stream",
    });
    const bytes = Buffer.from(await (await fetch(delta!.url!)).arrayBuffer());
    expect(bytes.equals(files.get("Pinout2.1.0-2.0.0.delta")!)).toBe(true);
    expect(verify(null, bytes, key, Buffer.from(delta!["sparkle:edSignature"]!, "base64"))).toBe(
      true,
    );
    // The full update beside it is signed the same way.
    const full = item?.enclosure as Record<string, string>;
    const zip = Buffer.from(await (await fetch(full.url!)).arrayBuffer());
    expect(verify(null, zip, key, Buffer.from(full["sparkle:edSignature"]!, "base64"))).toBe(true);
  });

  it("serves Velopack's feed as VelopackAssetFeed reads it, with reachable packages and matching hashes", async () => {
    const inside = Array.from({ length: 200 }, (_, n) => `install-${n}`).find((id) =>
      inRollout(`id:${id}`, "2.2.0", 50),
    );
    const response = await fetch(
      `${server.url}/updates/velopack/releases.win.json?arch=x64&localVersion=2.0.0&id=Pinout&stagingId=${inside}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const feed = (await response.json()) as { Assets: unknown[] };
    expect(Object.keys(feed)).toEqual(["Assets"]);
    feed.Assets.forEach(expectVelopackAsset);
    const assets = feed.Assets as VelopackAssetJson[];
    expect(assets.map((asset) => `${asset.Version} ${asset.Type}`)).toEqual([
      "2.2.0 Full",
      "2.2.0 Delta",
      "2.1.0 Full",
      "2.1.0 Delta",
      "2.0.0 Full",
    ]);
    expect(assets[0]).toMatchObject({
      PackageId: "Pinout",
      NotesMarkdown: "Version 2.2.0: **faster** exports.",
    });
    expect(assets[0]!.NotesHtml).toContain("<strong>faster</strong>");
    for (const asset of assets) {
      // Downloaded from beside the feed, as Velopack's SimpleWebSource does.
      const got = await fetch(`${server.url}/updates/velopack/${asset.FileName}`);
      expect(got.status, asset.FileName).toBe(200);
      const bytes = Buffer.from(await got.arrayBuffer());
      expect(bytes.equals(files.get(asset.FileName)!)).toBe(true);
      expect(bytes.length).toBe(asset.Size);
      expect(createHash("sha1").update(bytes).digest("hex").toUpperCase()).toBe(asset.SHA1);
      expect(createHash("sha256").update(bytes).digest("hex").toUpperCase()).toBe(asset.SHA256);
    }
  });

  it("gives an install outside the rollout the release before, and an unknown channel a 404", async () => {
    const outside = Array.from({ length: 200 }, (_, n) => `install-${n}`).find(
      (id) => !inRollout(`id:${id}`, "2.2.0", 50),
    );
    const feed = (await (
      await fetch(`${server.url}/updates/velopack/releases.win.json?stagingId=${outside}`)
    ).json()) as { Assets: VelopackAssetJson[] };
    expect(
      feed.Assets.filter((asset) => asset.Type === "Full").map((asset) => asset.Version),
    ).toEqual(["2.1.0", "2.0.0"]);
    // No Mac packages were published: an empty feed, which Velopack reads as "no update".
    const mac = await fetch(`${server.url}/updates/velopack/releases.osx.json`);
    expect(await mac.json()).toEqual({ Assets: [] });
    expect((await fetch(`${server.url}/updates/velopack/releases.linux.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/updates/velopack/Other-9.9.9-full.nupkg`)).status).toBe(404);
  });

  it("refuses uploads an updater would reject, saying why", async () => {
    const draft = (await (
      await api("/api/admin/releases", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ version: "2.3.0" }),
      })
    ).json()) as { id: string };
    const put = async (name: string, body: Buffer, query = "") => {
      const answer = await api(
        `/api/admin/releases/${draft.id}/files/${encodeURIComponent(name)}${query}`,
        { method: "PUT", body: new Uint8Array(body) },
      );
      return { status: answer.status, error: ((await answer.json()) as { error?: string }).error };
    };
    const cases: [string, Buffer, string, RegExp][] = [
      ["Pinout-delta.delta", randomBytes(100), "", /name a Sparkle delta as generate_appcast does/],
      [
        "Pinout2.3.0-2.4.0.delta",
        randomBytes(100),
        "",
        /must start from a version older than 2.3.0/,
      ],
      ["Pinout-2.3.0-full.nupkg", nupkg("2.2.0", 100), "", /manifest says version 2.2.0/],
      ["Pinout-2.3.0-full.nupkg", nupkg("2.3.0", 100, { os: "linux" }), "", /"linux"/],
      ["Pinout-2.3.0-full.nupkg", randomBytes(5_000), "", /not a Velopack package/],
      [
        "Pinout-2.3.0-full.nupkg",
        Buffer.from(zipSync({ "lib/a.txt": strToU8("no manifest") })),
        "",
        /no \.nuspec manifest/,
      ],
    ];
    for (const [name, body, query, reason] of cases) {
      const answer = await put(name, body, query);
      expect(answer.status, name).toBe(400);
      expect(answer.error, name).toMatch(reason);
    }
    // A signature made with a key other than the site's would fail in every app.
    const bytes = randomBytes(2_000);
    const { privateKey } = generateKeyPairSync("ed25519");
    const foreign = sign(null, bytes, privateKey).toString("base64");
    const signed = await put(
      "Pinout-2.3.0-mac.zip",
      bytes,
      `?ed_signature=${encodeURIComponent(foreign)}`,
    );
    expect(signed.status).toBe(400);
    expect(signed.error).toMatch(/does not verify with the site's update key/);
    // One app per release: a second package id is refused.
    expect((await put("Pinout-2.3.0-full.nupkg", nupkg("2.3.0", 100))).status).toBe(201);
    const other = await put("Other-2.3.0-delta.nupkg", nupkg("2.3.0", 100, { id: "Other" }));
    expect(other.status).toBe(400);
    expect(other.error).toMatch(/one app per release/);
    // Nothing refused was kept.
    const release = (await (await api(`/api/admin/releases/${draft.id}`)).json()) as {
      files: { fileName: string }[];
    };
    expect(release.files.map((file) => file.fileName)).toEqual(["Pinout-2.3.0-full.nupkg"]);
  });

  it("says on the release page what each updater downloads, and counts deltas against the full update", async () => {
    const list = (await (await api("/api/admin/releases")).json()) as {
      releases: { id: string; version: string }[];
    };
    const id = list.releases.find((release) => release.version === "2.1.0")?.id ?? "";
    const text = await pageText(server, `/admin/releases/${id}`, cookie);
    expect(text).toContain("What apps download");
    expect(text).toContain(`From 2.0.0: ${formatBytes(9_000)} (8 % of the whole)`);
    expect(text).toContain("Velopack (Windows)");
    expect(text).toContain("From the release before");
    expect(text).toContain("Nothing for: Tauri (macOS), Tauri (Windows), Velopack (macOS).");
    expect(text).toMatch(/delta from 2\.0\.0 \(sparkle\)/);

    // Two Sparkle deltas and one Velopack delta: 3 deliveries of 9,000 + 9,000 + the package.
    const sparkleDelta = `${server.url}/releases/2.1.0/Pinout2.1.0-2.0.0.delta`;
    await (await fetch(sparkleDelta)).arrayBuffer();
    await (await fetch(sparkleDelta)).arrayBuffer();
    const velopackDelta = files.get("Pinout-2.1.0-delta.nupkg")!;
    await (await fetch(`${server.url}/updates/velopack/Pinout-2.1.0-delta.nupkg`)).arrayBuffer();
    const zip = files.get("Pinout-2.1.0-mac.zip")!.length;
    const fullPackage = files.get("Pinout-2.1.0-full.nupkg")!.length;
    await eventually(
      async () => {
        const page = await (await getWithCookies(server, `/admin/releases/${id}`, cookie)).text();
        // Each test before fetched every delta of 2.1.0 once: one Sparkle, one Velopack.
        return (
          /data-testid="deliveries-mac-delta">3</.test(page) &&
          /data-testid="deliveries-windows-delta">2</.test(page)
        );
      },
      10_000,
      "the release page's delta counts",
    );
    // Each delta row: its bytes sent, against the full update it stood in for each time.
    const page = await pageText(server, `/admin/releases/${id}`, cookie);
    expect(page).toContain(`mac Delta package 3 ${formatBytes(3 * 9_000)} ${formatBytes(3 * zip)}`);
    expect(page).toContain(
      `windows Delta package 2 ${formatBytes(2 * velopackDelta.length)} ${formatBytes(2 * fullPackage)}`,
    );
  });
});
