import { createHash, createPublicKey, verify } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  getAsBrowser,
  getWithCookies,
  postForm,
  signUpVerified,
  startWithAdmin,
} from "../support/auth";
import { eventually } from "../support/eventually";
import { signInDevice } from "../support/desktop";
import { textOf } from "../support/pages";
import { runScript } from "../support/cli";
import { engines } from "../support/engines";
import { tableRows } from "../support/html";
import { type RunningTestServer, startedDataDir } from "../support/server";

const PASSWORD = "releases-password-1";
const SECRET = "integration-test-secret-0123456789abcdef";

interface ElectronFeed {
  version: string;
  files: { url: string; sha512: string; size: number }[];
  path: string;
  sha512: string;
  releaseDate: string;
  stagingPercentage?: number;
}

/** Writes a release's files: every kind the three updaters read, with minisign-like .sig files. */
function releaseFiles(dir: string, version: string): string[] {
  const files: [string, Buffer | string][] = [
    [`Pinout-${version}.dmg`, Buffer.alloc(180_000 + version.length, 1)],
    [`Pinout-${version}-mac.zip`, Buffer.from(`zip ${version} `.repeat(9_000))],
    [`Pinout-Setup-${version}.exe`, Buffer.from(`MZ ${version}`.padEnd(150_000, "w"))],
    [`Pinout-Setup-${version}.exe.blockmap`, Buffer.from(`blockmap ${version}`)],
    [`Pinout-${version}.app.tar.gz`, Buffer.from(`tar ${version} `.repeat(5_000))],
    [
      `Pinout-${version}.app.tar.gz.sig`,
      `untrusted comment: signature ${version} mac\nRUQ${version}mac==`,
    ],
    [`Pinout_${version}_x64_en-US.msi`, Buffer.from(`msi ${version} `.repeat(6_000))],
    [
      `Pinout_${version}_x64_en-US.msi.sig`,
      `untrusted comment: signature ${version} win\nRUQ${version}win==`,
    ],
  ];
  return files.map(([name, body]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, body);
    return file;
  });
}

const sha512 = (bytes: Buffer) => createHash("sha512").update(bytes).digest("base64");

describe.each(engines())("desktop releases and update feeds on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-release-files-"));
  // The embedded default publishes a first release 1.0.0 on start; there, publish two after it.
  const [OLD, NEW] = engine.name === "pglite" ? ["1.1.0", "1.2.0"] : ["1.0.0", "1.1.0"];
  let server: RunningTestServer;
  let boss = "";
  let token = "";

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    getAsBrowser(server, pathname, headers);
  const api = (pathname: string, body: unknown) =>
    fetch(server.url + pathname, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const releaseId = async (version: string) => {
    const list = (await (
      await fetch(`${server.url}/api/admin/releases`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).json()) as { releases: { id: string; version: string }[]; sparklePublicKey: string };
    return { id: list.releases.find((release) => release.version === version)?.id ?? "", list };
  };
  const publish = (version: string, extra: string[] = []) =>
    runScript(
      "scripts/release-publish.ts",
      [
        "--version",
        version,
        "--notes",
        `Notes of ${version}.`,
        "--site",
        server.url,
        "--token",
        token,
        ...extra.flatMap((file) => ["--file", file]),
      ],
      {},
    );

  beforeAll(async () => {
    ({ server, admin: boss } = await startWithAdmin(engine, PASSWORD, {
      dataDir,
      // Counts are written every 200 ms, so what the admin pages show follows within a moment.
      // The 2,000 made-up checks come from one address: past the update-check limit.
      env: { BETTER_AUTH_SECRET: SECRET, STATS_FLUSH_MS: "200", UPDATES_RATE_LIMIT: "100000" },
    }));
    const created = await postForm(server, "/admin/releases", boss, {
      intent: "token",
      name: "test",
    });
    token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    expect(token).not.toBe("");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("publishes two releases through the admin API of the running site (the CLI with a token)", async () => {
    for (const version of [OLD, NEW]) {
      const result = await publish(version, releaseFiles(filesDir, version));
      expect(result.output).toContain(`published ${version} (stable)`);
      expect(result.code).toBe(0);
    }
    // The same version twice is refused and leaves the first untouched.
    const again = await publish(NEW, [path.join(filesDir, `Pinout-${NEW}.dmg`)]);
    expect(again.code).toBe(1);
    expect(again.output).toContain(`version ${NEW} already exists`);
    expect((await get("/download")).status).toBe(200);
    expect(textOf(await (await get("/download")).text())).toContain(`Version ${NEW}`);
  });

  it("serves electron-updater feeds whose hashes and sizes match the downloaded bytes", async () => {
    for (const [feedName, expected] of [
      ["latest.yml", [`Pinout-Setup-${NEW}.exe`]],
      ["latest-mac.yml", [`Pinout-${NEW}-mac.zip`, `Pinout-${NEW}.dmg`]],
    ] as const) {
      const feedUrl = `${server.url}/updates/stable/${feedName}`;
      const response = await fetch(feedUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get("etag")).toBeTruthy();
      const feed = parse(await response.text()) as ElectronFeed;
      expect(feed.version).toBe(NEW);
      expect(feed.stagingPercentage).toBeUndefined();
      expect(feed.files.map((file) => decodeURIComponent(file.url.split("/").pop() ?? ""))).toEqual(
        expected,
      );
      for (const file of feed.files) {
        // electron-updater resolves file URLs against the feed URL.
        const download = await fetch(new URL(file.url, feedUrl));
        expect(download.status).toBe(200);
        const bytes = Buffer.from(await download.arrayBuffer());
        expect(bytes.length).toBe(file.size);
        expect(sha512(bytes)).toBe(file.sha512);
      }
      expect(feed.path).toBe(feed.files[0]?.url);
      expect(feed.sha512).toBe(feed.files[0]?.sha512);
      expect(Number.isNaN(Date.parse(feed.releaseDate))).toBe(false);
      // An unchanged feed costs a 304.
      const etag = response.headers.get("etag") ?? "";
      expect((await fetch(feedUrl, { headers: { "if-none-match": etag } })).status).toBe(304);
    }
    const blockmap = await fetch(`${server.url}/releases/${NEW}/Pinout-Setup-${NEW}.exe.blockmap`);
    expect(await blockmap.text()).toBe(`blockmap ${NEW}`);
  });

  it("answers Tauri: 204 when current, the update with its signature when not, a complete static JSON", async () => {
    expect((await fetch(`${server.url}/updates/tauri/darwin/aarch64/${NEW}`)).status).toBe(204);
    const update = await fetch(`${server.url}/updates/tauri/darwin/aarch64/${OLD}`);
    expect(update.status).toBe(200);
    const body = (await update.json()) as Record<string, string>;
    expect(body.version).toBe(NEW);
    expect(body.signature).toBe(`untrusted comment: signature ${NEW} mac\nRUQ${NEW}mac==`);
    expect(body.url).toMatch(new RegExp(`/releases/${NEW}/Pinout-${NEW}\\.app\\.tar\\.gz$`));
    expect(Number.isNaN(Date.parse(body.pub_date ?? ""))).toBe(false);
    const windows = (await (
      await fetch(`${server.url}/updates/tauri/windows/x86_64/${OLD}`)
    ).json()) as Record<string, string>;
    expect(windows.url).toMatch(/_x64_en-US\.msi$/);

    const stat = (await (await fetch(`${server.url}/updates/stable/tauri.json`)).json()) as {
      version: string;
      platforms: Record<string, { url?: string; signature?: string }>;
    };
    expect(stat.version).toBe(NEW);
    expect(Object.keys(stat.platforms)).toEqual(
      expect.arrayContaining(["darwin-aarch64", "darwin-x86_64", "windows-x86_64"]),
    );
    for (const entry of Object.values(stat.platforms)) {
      expect(entry.url).toMatch(/^http/);
      expect(entry.signature).toMatch(/^untrusted comment/);
    }
  });

  it("counts made-up versions of 2,000 update checks as one 'other' row: the operator's pages keep their size (issue 32, point 2)", async () => {
    const page = async (pathname: string) => {
      const response = await getWithCookies(server, pathname, boss);
      expect(response.status).toBe(200);
      return response.text();
    };
    const before = {
      admin: (await page("/admin")).length,
      analytics: (await page("/admin/analytics")).length,
    };
    const fake = (index: number) => `9.${index}.0-pay-at-pinout-support`;
    for (let start = 0; start < 2_000; start += 50)
      await Promise.all(
        Array.from({ length: 50 }, async (_, offset) => {
          const response = await fetch(
            `${server.url}/updates/tauri/darwin/aarch64/${fake(start + offset)}`,
          );
          await response.arrayBuffer();
          expect(response.status).toBe(204);
        }),
      );
    const other = await eventually(
      async () => {
        const rows = tableRows(await page("/admin"), "App versions in use");
        const count = Number(rows.find((cells) => cells[0] === "other")?.[1]?.replace(/,/g, ""));
        return count >= 2_000 ? rows : undefined;
      },
      20_000,
      "2,000 checks in the other row on /admin",
    );
    expect(other.filter((cells) => cells[0]?.includes("pay-at"))).toEqual([]);
    const admin = await page("/admin");
    const analytics = await page("/admin/analytics");
    expect(analytics).not.toContain("pay-at");
    // The "other" row (and whatever the earlier tests' counts add meanwhile), never 2,000 rows:
    // listed, the made-up versions would add over 100 KB to each page.
    expect(admin.length - before.admin).toBeLessThan(10_000);
    expect(analytics.length - before.analytics).toBeLessThan(10_000);
    expect(tableRows(admin, "App versions in use").length).toBeLessThan(10);
  });

  it("publishes a Sparkle appcast whose site-made signature verifies against the published key", async () => {
    const response = await fetch(`${server.url}/updates/stable/appcast.xml`);
    expect(response.headers.get("content-type")).toContain("xml");
    const xml = await response.text();
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml) as {
      rss: {
        "xmlns:sparkle": string;
        channel: { item: Record<string, unknown>[] | Record<string, unknown> };
      };
    };
    expect(doc.rss["xmlns:sparkle"]).toBe("http://www.andymatuschak.org/xml-namespaces/sparkle");
    const items = [doc.rss.channel.item].flat();
    const newest = items[0] as Record<string, unknown> & {
      enclosure: { url: string; length: string; "sparkle:edSignature": string };
    };
    expect(String(newest["sparkle:version"])).toBe(NEW);
    expect(items.map((item) => String(item["sparkle:version"]))).toContain(OLD);
    const bytes = Buffer.from(await (await fetch(newest.enclosure.url)).arrayBuffer());
    expect(Number(newest.enclosure.length)).toBe(bytes.length);
    const { list } = await releaseId(NEW);
    const key = createPublicKey({
      key: {
        kty: "OKP",
        crv: "Ed25519",
        x: Buffer.from(list.sparklePublicKey, "base64").toString("base64url"),
      },
      format: "jwk",
    });
    expect(
      verify(null, bytes, key, Buffer.from(newest.enclosure["sparkle:edSignature"], "base64")),
    ).toBe(true);
    expect(
      verify(
        null,
        Buffer.from("other bytes"),
        key,
        Buffer.from(newest.enclosure["sparkle:edSignature"], "base64"),
      ),
    ).toBe(false);
  });

  it("rolls out to a stable share of clients, pauses and pulls", async () => {
    const { id } = await releaseId(NEW);
    expect(
      (await api(`/api/admin/releases/${id}`, { action: "rollout", rolloutPercent: 10 })).status,
    ).toBe(200);
    const offered = async (client: string) =>
      (await fetch(`${server.url}/updates/tauri/darwin/aarch64/${OLD}?client_id=${client}`))
        .status === 200;
    let yes = 0;
    const ids = Array.from({ length: 1000 }, (_, index) => `client-${index}`);
    for (let start = 0; start < ids.length; start += 20) {
      const answers = await Promise.all(ids.slice(start, start + 20).map(offered));
      yes += answers.filter(Boolean).length;
    }
    expect(yes).toBeGreaterThanOrEqual(50);
    expect(yes).toBeLessThanOrEqual(150);
    for (const client of ids.slice(0, 30))
      expect(await offered(client)).toBe(await offered(client));
    // electron-updater decides itself: it gets the percentage.
    const electron = parse(
      await (await fetch(`${server.url}/updates/stable/latest-mac.yml`)).text(),
    ) as ElectronFeed;
    expect(electron.version).toBe(NEW);
    expect(electron.stagingPercentage).toBe(10);

    expect((await api(`/api/admin/releases/${id}`, { action: "pause" })).status).toBe(200);
    let offeredWhilePaused = 0;
    for (const client of ids.slice(0, 200)) if (await offered(client)) offeredWhilePaused += 1;
    expect(offeredWhilePaused).toBe(0);
    const paused = parse(
      await (await fetch(`${server.url}/updates/stable/latest-mac.yml`)).text(),
    ) as ElectronFeed;
    expect(paused.version).toBe(OLD);

    expect((await api(`/api/admin/releases/${id}`, { action: "resume" })).status).toBe(200);
    expect(
      (await api(`/api/admin/releases/${id}`, { action: "rollout", rolloutPercent: 100 })).status,
    ).toBe(200);
    expect((await api(`/api/admin/releases/${id}`, { action: "pull" })).status).toBe(200);
    for (const feed of ["latest.yml", "latest-mac.yml"]) {
      const pulled = parse(
        await (await fetch(`${server.url}/updates/stable/${feed}`)).text(),
      ) as ElectronFeed;
      expect(pulled.version).toBe(OLD);
    }
    expect((await fetch(`${server.url}/updates/tauri/darwin/aarch64/${OLD}`)).status).toBe(204);
    expect((await fetch(`${server.url}/releases/${NEW}/Pinout-${NEW}.dmg`)).status).toBe(404);
    expect(textOf(await (await get("/download")).text())).toContain(`Version ${OLD}`);
    expect((await api(`/api/admin/releases/${id}`, { action: "restore" })).status).toBe(200);
  });

  it("tells an app below the minimum version that it must update", async () => {
    const form = await postForm(server, "/admin/releases", boss, {
      intent: "minimum",
      platform: "mac",
      version: NEW,
    });
    expect(form.status).toBe(200);
    const access = await signInDevice(server, boss, "Boss's Mac");
    const me = async (version: string) =>
      (await (
        await fetch(`${server.url}/api/desktop/me`, {
          headers: { Authorization: `Bearer ${access}`, "X-App-Version": version },
        })
      ).json()) as { update: { latest: string | null; minimum: string | null; required: boolean } };
    expect((await me(OLD)).update).toEqual({ latest: NEW, minimum: NEW, required: true });
    expect((await me(NEW)).update.required).toBe(false);
    const appcast = await (await fetch(`${server.url}/updates/stable/appcast.xml`)).text();
    expect(appcast).toContain(`<sparkle:criticalUpdate sparkle:version="${NEW}"/>`);
    const critical = (await (
      await fetch(`${server.url}/updates/tauri/darwin/aarch64/${OLD}`)
    ).json()) as { critical?: boolean };
    expect(critical.critical).toBe(true);
  });

  it("keeps drafts out of every feed and lets only admins upload", async () => {
    const draft = await api("/api/admin/releases", { version: "9.9.9" });
    expect(draft.status).toBe(201);
    const { id } = (await draft.json()) as { id: string };
    const put = (headers: Record<string, string>) =>
      fetch(`${server.url}/api/admin/releases/${id}/files/Pinout-9.9.9.dmg`, {
        method: "PUT",
        headers: { ...headers, "content-type": "application/octet-stream" },
        body: Buffer.alloc(1000, 9),
      });
    expect((await put({ Authorization: `Bearer ${token}` })).status).toBe(201);
    for (const feed of ["latest-mac.yml", "appcast.xml", "tauri.json"])
      expect(await (await fetch(`${server.url}/updates/stable/${feed}`)).text()).not.toContain(
        "9.9.9",
      );
    expect((await fetch(`${server.url}/releases/9.9.9/Pinout-9.9.9.dmg`)).status).toBe(404);

    // Neither token nor cookie: 401 (said from a page of the site; with no Origin either, the
    // cross-site check refuses it first, 403).
    expect((await put({ origin: server.url })).status).toBe(401);
    expect((await put({})).status).toBe(403);
    const user = await signUpVerified(server, {
      name: "U",
      email: "user@example.com",
      password: PASSWORD,
    });
    expect((await put({ cookie: user, origin: server.url })).status).toBe(403);
    expect((await put({ Authorization: "Bearer pinout_admin_not-a-token" })).status).toBe(401);
    expect((await getWithCookies(server, "/admin/releases", user)).status).toBe(403);
    // A file the updaters do not know, and a bad version, are refused with a message.
    const odd = await fetch(`${server.url}/api/admin/releases/${id}/files/notes.txt`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${token}` },
      body: "hello",
    });
    expect(odd.status).toBe(400);
    const bad = await api("/api/admin/releases", { version: "1.0" });
    expect(bad.status).toBe(400);
  });

  it("refuses unknown channels, feeds, targets and versions without a 500", async () => {
    expect((await fetch(`${server.url}/updates/nightly/latest.yml`)).status).toBe(404);
    expect((await fetch(`${server.url}/updates/stable/latest-linux.yml`)).status).toBe(404);
    expect((await fetch(`${server.url}/updates/tauri/linux/x86_64/1.0.0`)).status).toBe(404);
    expect((await fetch(`${server.url}/updates/tauri/darwin/mips/1.0.0`)).status).toBe(404);
    expect((await fetch(`${server.url}/updates/tauri/darwin/aarch64/not-a-version`)).status).toBe(
      400,
    );
    expect(
      (await fetch(`${server.url}/updates/tauri/darwin/aarch64/1.0.0?channel=nightly`)).status,
    ).toBe(404);
    expect((await fetch(`${server.url}/releases/..%2F..%2Fetc/passwd`)).status).toBe(404);
  });

  it("counts downloads and update checks per day and shows old releases", async () => {
    const history = await (await get("/download/history")).text();
    expect(history).toContain(OLD);
    expect(history).toContain(NEW);
    expect(history).not.toContain("9.9.9");
    const admin = await (await getWithCookies(server, "/admin/releases", boss)).text();
    expect(admin).toContain(NEW);
    expect(admin).toMatch(/Rolling out|Live/);
  });
});
