import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseAssets } from "~/.server/db/schema";
import { BROWSER_HEADERS } from "../support/auth";
import { runScript } from "../support/cli";
import { contractEngines } from "../support/engines";
import { type RunningTestServer, startServer, startedDataDir } from "../support/server";
import { readDatabase } from "../support/test-database";

const MAC_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const WINDOWS_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
const LINUX_UA = BROWSER_HEADERS["user-agent"];
const SECRET = "integration-test-secret-0123456789abcdef";

/** The text of the page's main content (the navbar has its own "Download for Mac"). */
function text(html: string): string {
  const main = /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
  return main.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

describe.each(contractEngines("embedded default"))("downloads on $name", (engine) => {
  const dataDir = startedDataDir(engine);
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-installers-"));
  const mac = path.join(files, "Pinout-2.1.0.dmg");
  const windows = path.join(files, "Pinout-Setup-2.1.0.exe");
  let databaseUrl: string | undefined;
  let server: RunningTestServer;
  const env = () => ({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, BETTER_AUTH_SECRET: SECRET });
  const page = async (ua: string) =>
    text(await (await fetch(`${server.url}/download`, { headers: { "user-agent": ua } })).text());

  beforeAll(async () => {
    fs.writeFileSync(mac, Buffer.alloc(256 * 1024, 7));
    fs.writeFileSync(windows, Buffer.from("MZ".padEnd(150_000, "w")));
    databaseUrl = await engine.freshDatabaseUrl();
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("shows the demo release on the embedded default, or says plainly that none exists", async () => {
    const body = await page(MAC_UA);
    if (engine.name === "pglite") {
      expect(body).toContain("Version 1.0.0");
      expect(body).toContain("The first release of Pinout.");
      // Visitors never read operator instructions.
      expect(body).not.toMatch(/release:publish|placeholder/i);
    } else {
      expect(body).toContain("No version of Pinout has been published yet");
      expect((await fetch(`${server.url}/api/releases/latest`)).status).toBe(404);
    }
  });

  it("publishes a release with the CLI, refusing the same version twice", async () => {
    // The embedded database has one owner at a time: the CLI waits for the server to stop.
    await server.stop();
    const args = [
      "--version",
      "2.1.0",
      "--mac",
      mac,
      "--windows",
      windows,
      "--notes",
      "Faster flashing.",
    ];
    const first = await runScript("scripts/release-publish.ts", args, env());
    expect(first.output).toContain("published 2.1.0 (stable)");
    expect(first.code).toBe(0);
    const again = await runScript("scripts/release-publish.ts", args, env());
    expect(again.code).toBe(1);
    expect(again.output).toContain("version 2.1.0 already exists");
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
  });

  it("offers the visitor's platform first", async () => {
    const onMac = await page(MAC_UA);
    expect(onMac).toContain("Version 2.1.0");
    expect(onMac.indexOf("Download for Mac")).toBeLessThan(onMac.indexOf("Download for Windows"));
    const onWindows = await page(WINDOWS_UA);
    expect(onWindows.indexOf("Download for Windows")).toBeLessThan(
      onWindows.indexOf("Download for Mac"),
    );
    const onLinux = await page(LINUX_UA);
    expect(onLinux).toContain("runs on Mac and Windows");
    expect(onLinux).toContain(createHash("sha256").update(fs.readFileSync(mac)).digest("hex"));
  });

  it("serves the exact bytes with length, name and ranges", async () => {
    const response = await fetch(`${server.url}/download/mac`, {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(256 * 1024));
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="Pinout-2.1.0.dmg"',
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(
      createHash("sha256").update(fs.readFileSync(mac)).digest("hex"),
    );

    const partial = await fetch(`${server.url}/download/windows/2.1.0`, {
      headers: { range: "bytes=0-1" },
    });
    expect(partial.status).toBe(206);
    expect(partial.headers.get("content-range")).toBe("bytes 0-1/150000");
    expect(await partial.text()).toBe("MZ");
    const beyond = await fetch(`${server.url}/download/mac`, {
      headers: { range: "bytes=999999999-" },
    });
    expect(beyond.status).toBe(416);
    expect((await fetch(`${server.url}/download/linux`)).status).toBe(404);
    expect((await fetch(`${server.url}/download/mac/9.9.9`)).status).toBe(404);
  });

  it("lists the latest stable release as JSON", async () => {
    const latest = (await (await fetch(`${server.url}/api/releases/latest`)).json()) as {
      version: string;
      assets: { platform: string; size: number; url: string }[];
    };
    expect(latest.version).toBe("2.1.0");
    expect(latest.assets.map((asset) => asset.platform).sort()).toEqual(["mac", "windows"]);
    expect(latest.assets.find((asset) => asset.platform === "mac")?.size).toBe(256 * 1024);
  });

  it("counts each download once (ranges that resume do not count again)", async () => {
    await fetch(`${server.url}/download/mac`).then((response) => response.arrayBuffer());
    await fetch(`${server.url}/download/mac`, { headers: { range: "bytes=100-" } }).then(
      (response) => response.arrayBuffer(),
    );
    await server.stop();
    const rows = await readDatabase({ dataDir, databaseUrl }, (db) =>
      db.select().from(releaseAssets),
    );
    const counts = Object.fromEntries(
      rows
        .filter((row) => row.fileName.includes("2.1.0"))
        .map((row) => [row.platform, row.downloadCount]),
    );
    // Mac: the full download in the bytes test and one here; Windows: the 0-1 range.
    expect(counts).toEqual({ mac: 2, windows: 1 });
    server = await startServer({ dataDir, env: { DATABASE_URL: databaseUrl } });
  });
});
