/**
 * Issue 58, point 2 (channels and settings): one appcast for every channel,
 * /updates/all/appcast.xml, whose beta items carry `<sparkle:channel>beta</sparkle:channel>`
 * beside the stable ones, so Sparkle offers a beta only to apps that allow that channel; the
 * per-channel appcasts stay as they were. A release's `informationalUpdate` and
 * `minimumAutoupdateVersion` come from its settings, and its notes in other languages are
 * `<description xml:lang="…">` beside the notes without a language.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import { runScript } from "../support/cli";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

type Item = Record<string, unknown> & { enclosure: { url: string } };

describe("one Sparkle appcast for every channel", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-sparkle-channels-"));
  let server: RunningTestServer;
  let token = "";

  const items = async (pathname: string): Promise<Item[]> => {
    const response = await fetch(`${server.url}${pathname}`);
    expect(response.status).toBe(200);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      await response.text(),
    ) as { rss: { channel: { item: Item | Item[] } } };
    return [doc.rss.channel.item].flat();
  };

  beforeAll(async () => {
    server = await startServerOn(httpEngine(), { env: { ADMIN_EMAILS: "ops@example.com" } });
    const cookie = await signUpVerified(server, {
      name: "Ops",
      email: "ops@example.com",
      password: "sparkle-channels-1",
    });
    const created = await postForm(server, "/admin/releases", cookie, {
      intent: "token",
      name: "build",
    });
    token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    // The stable release asks apps below 5.0.0 before installing; the beta is informational.
    for (const [version, channel, settings] of [
      [
        "6.0.0",
        "stable",
        [
          "--minimum-autoupdate-version",
          "5.0.0",
          "--notes",
          "Faster **exports**.",
          "--notes-lang",
          "hi=तेज़ **निर्यात**।",
          "--notes-lang",
          "pt-BR=Exportações mais rápidas.",
        ],
      ],
      ["6.1.0", "beta", ["--informational"]],
    ] as const) {
      const dmg = path.join(dir, `Pinout-${version}.dmg`);
      const zip = path.join(dir, `Pinout-${version}-mac.zip`);
      fs.writeFileSync(dmg, Buffer.alloc(20_000, version.length));
      fs.writeFileSync(zip, Buffer.from(`zip ${version} `.repeat(2_000)));
      const published = await runScript(
        "scripts/release-publish.ts",
        [
          "--version",
          version,
          "--channel",
          channel,
          "--mac",
          dmg,
          "--file",
          zip,
          "--site",
          server.url,
          "--token",
          token,
          ...settings,
        ],
        {},
      );
      expect(published.output).toContain(`published ${version} (${channel})`);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("tags the beta item for the beta channel, beside the stable one", async () => {
    const all = await items("/updates/all/appcast.xml");
    expect(all.map((item) => [String(item["sparkle:version"]), item["sparkle:channel"]])).toEqual([
      ["6.1.0", "beta"],
      ["6.0.0", undefined],
    ]);
    expect(all[0]!.enclosure.url).toBe(`${server.url}/releases/6.1.0/Pinout-6.1.0-mac.zip`);
  });

  it("carries the release's Sparkle settings: informational, and the minimum autoupdate version", async () => {
    const [beta, stable] = await items("/updates/all/appcast.xml");
    expect(beta).toHaveProperty("sparkle:informationalUpdate");
    expect(beta).not.toHaveProperty("sparkle:minimumAutoupdateVersion");
    expect(String(stable!["sparkle:minimumAutoupdateVersion"])).toBe("5.0.0");
    expect(stable).not.toHaveProperty("sparkle:informationalUpdate");
  });

  it("keeps the per-channel appcasts as they were", async () => {
    const stable = await items("/updates/stable/appcast.xml");
    expect(stable.map((item) => String(item["sparkle:version"]))).toEqual(["6.0.0"]);
    const beta = await items("/updates/beta/appcast.xml");
    expect(beta.map((item) => String(item["sparkle:version"]))).toEqual(["6.1.0", "6.0.0"]);
    expect(beta.every((item) => item["sparkle:channel"] === undefined)).toBe(true);
    expect((await fetch(`${server.url}/updates/all/latest.yml`)).status).toBe(404);
  });

  it("carries the notes in each language with xml:lang, beside the notes without one", async () => {
    const [, stable] = await items("/updates/all/appcast.xml");
    expect(stable!.description).toEqual([
      "<p>Faster <strong>exports</strong>.</p>",
      { "#text": "<p>तेज़ <strong>निर्यात</strong>।</p>", "xml:lang": "hi" },
      { "#text": "<p>Exportações mais rápidas.</p>", "xml:lang": "pt-BR" },
    ]);
    // A tag xml:lang cannot carry is refused with the reason.
    const refused = await fetch(`${server.url}/api/admin/releases`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ version: "6.2.0", notesTranslations: { "hindi language": "x" } }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toMatch(/language tag/);
  });
});
