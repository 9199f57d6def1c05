/**
 * Issue 58, point 1: byte ranges as updaters need them. electron-updater's own differential
 * downloader rebuilds a new installer from the old one and the two blockmaps against the built
 * site, byte-exact, fetching only the changed blocks (one multi-range request answered `206
 * multipart/byteranges`), from the site's disk and from S3 (s3rver, where one range at a time is
 * fetched and the parts streamed in order). Multi-range parts are byte-exact at the start, middle
 * and end, overlapping and suffix; If-Range with another ETag and a request for too many ranges
 * get the whole file. (The server's memory serving 200 MB this way: security-review.test.ts.)
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { getWithCookies, postForm, signUpVerified } from "../support/auth";
import { eventually } from "../support/eventually";
import { pageText } from "../support/pages";
import { formatBytes } from "~/lib/format";
import { runScript } from "../support/cli";
import { blockMapOf, differentialDownload, readBlockMap } from "../support/electron-updater";
import { httpEngine } from "../support/engines";
import { type LocalS3, startS3 } from "../support/s3";
import { type RunningTestServer, startServerOn } from "../support/server";

const OLD = "5.0.0";
const NEW = "5.1.0";
const BLOCK = 16 * 1024;
const MAX_RANGES = 20;

/** The parts of a `multipart/byteranges` body: each part's Content-Range and bytes. */
function multipartParts(body: Buffer, boundary: string) {
  const parts: { range: string; bytes: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  expect(at).toBe(0);
  for (;;) {
    const afterDelimiter = at + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === "--") break;
    const headersEnd = body.indexOf("\r\n\r\n", afterDelimiter);
    const headers = body.subarray(afterDelimiter + 2, headersEnd).toString();
    const range = /^Content-Range: (.+)$/im.exec(headers)?.[1] ?? "";
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headersEnd);
    parts.push({ range, bytes: body.subarray(headersEnd + 4, next) });
    at = next + 2;
  }
  return parts;
}

describe.each([
  { storage: "the site's disk", s3: false },
  { storage: "S3 (s3rver)", s3: true },
])("differential updates from $storage", ({ s3: useS3 }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-differential-"));
  const oldFile = path.join(dir, `Pinout-Setup-${OLD}.exe`);
  let s3: LocalS3 | undefined;
  let server: RunningTestServer;
  let oldBytes: Buffer;
  let newBytes: Buffer;
  let cookie = "";
  let token = "";
  const fileUrl = () => `${server.url}/releases/${NEW}/Pinout-Setup-${NEW}.exe`;

  beforeAll(async () => {
    if (useS3) s3 = await startS3("pinout-releases");
    server = await startServerOn(httpEngine(), {
      env: {
        ADMIN_EMAILS: "ops@example.com",
        DOWNLOAD_MAX_RANGES: String(MAX_RANGES),
        // Counts are written every 200 ms, so the release page follows within a moment.
        STATS_FLUSH_MS: "200",
        ...(s3 ? { S3_BUCKET: "pinout-releases", ...s3.env } : {}),
      },
    });
    cookie = await signUpVerified(server, {
      name: "Ops",
      email: "ops@example.com",
      password: "differential-password-1",
    });
    const created = await postForm(server, "/admin/releases", cookie, {
      intent: "token",
      name: "build",
    });
    token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    // 3 MB, then the next version: five blocks changed here and there, 100 KB added at the end.
    oldBytes = randomBytes(3 * 1024 * 1024);
    newBytes = Buffer.concat([oldBytes, randomBytes(100 * 1024)]);
    for (const block of [3, 40, 41, 97, 150]) randomBytes(BLOCK).copy(newBytes, block * BLOCK);
    for (const [version, bytes] of [
      [OLD, oldBytes],
      [NEW, newBytes],
    ] as const) {
      const installer = path.join(dir, `Pinout-Setup-${version}.exe`);
      fs.writeFileSync(installer, bytes);
      fs.writeFileSync(`${installer}.blockmap`, blockMapOf(bytes, BLOCK));
      const published = await runScript(
        "scripts/release-publish.ts",
        [
          "--version",
          version,
          "--file",
          installer,
          "--file",
          `${installer}.blockmap`,
          "--site",
          server.url,
          "--token",
          token,
        ],
        {},
      );
      expect(published.output).toContain(`published ${version} (stable)`);
    }
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it("electron-updater rebuilds the new installer from the old one, byte-exact, fetching only what changed", async () => {
    // What the installed app reads: the feed, then both blockmaps from the site.
    const feed = parse(await (await fetch(`${server.url}/updates/stable/latest.yml`)).text()) as {
      version: string;
      files: { url: string; sha512: string; size: number }[];
    };
    expect(feed.version).toBe(NEW);
    const file = feed.files[0]!;
    const blockMap = async (version: string) =>
      readBlockMap(
        Buffer.from(
          await (
            await fetch(`${server.url}/releases/${version}/Pinout-Setup-${version}.exe.blockmap`)
          ).arrayBuffer(),
        ),
      );
    const rebuilt = path.join(dir, "rebuilt.exe");
    const fetched = await differentialDownload({
      url: new URL(file.url, server.url).href,
      oldFile,
      newFile: rebuilt,
      oldBlockMap: await blockMap(OLD),
      newBlockMap: await blockMap(NEW),
      size: file.size,
      sha512: file.sha512,
    });
    const bytes = fs.readFileSync(rebuilt);
    expect(bytes.equals(newBytes)).toBe(true);
    expect(createHash("sha512").update(bytes).digest("base64")).toBe(file.sha512);
    // One request for the changed blocks together, and far less than the whole file.
    expect(fetched.ranges.filter((range) => range.includes(","))).toHaveLength(1);
    expect(fetched.received).toBeLessThan(newBytes.length / 5);
  });

  it("answers several ranges with byte-exact parts: start, middle, end, overlapping and suffix", async () => {
    const size = newBytes.length;
    const answer = await fetch(fileUrl(), {
      headers: { range: "bytes=0-9, 1000-1999, 500-1500, -100, 70000-70000" },
    });
    expect(answer.status).toBe(206);
    const type = answer.headers.get("content-type") ?? "";
    const boundary = /^multipart\/byteranges; boundary=([0-9a-f]+)$/.exec(type)?.[1] ?? "";
    expect(boundary).not.toBe("");
    const body = Buffer.from(await answer.arrayBuffer());
    expect(Number(answer.headers.get("content-length"))).toBe(body.length);
    const parts = multipartParts(body, boundary);
    // 1000-1999 and 500-1500 overlap: one part, where the first of them was asked.
    expect(parts.map((part) => part.range)).toEqual([
      `bytes 0-9/${size}`,
      `bytes 500-1999/${size}`,
      `bytes ${size - 100}-${size - 1}/${size}`,
      `bytes 70000-70000/${size}`,
    ]);
    expect(parts[0]!.bytes.equals(newBytes.subarray(0, 10))).toBe(true);
    expect(parts[1]!.bytes.equals(newBytes.subarray(500, 2000))).toBe(true);
    expect(parts[2]!.bytes.equals(newBytes.subarray(size - 100))).toBe(true);
    expect(parts[3]!.bytes.equals(newBytes.subarray(70000, 70001))).toBe(true);
    // HEAD says the same length, without a body.
    const head = await fetch(fileUrl(), { method: "HEAD", headers: { range: "bytes=0-9,20-29" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-type")).toMatch(/^multipart\/byteranges; boundary=/);
  });

  it("gives the whole file for If-Range with another ETag, and for more ranges than allowed", async () => {
    const size = newBytes.length;
    const sha256 = createHash("sha256").update(newBytes).digest("hex");
    const same = await fetch(fileUrl(), {
      headers: { range: "bytes=0-9,20-29", "if-range": `"${sha256}"` },
      redirect: "manual",
    });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
    // Another version's ETag: the whole file (from S3, by its presigned address).
    const other = await fetch(fileUrl(), {
      headers: { range: "bytes=0-9,20-29", "if-range": `"${"0".repeat(64)}"` },
    });
    expect(other.status).toBe(200);
    expect(Buffer.from(await other.arrayBuffer()).length).toBe(size);
    const tooMany = Array.from(
      { length: MAX_RANGES + 1 },
      (_, index) => `${index * 100}-${index * 100 + 9}`,
    );
    const whole = await fetch(fileUrl(), { headers: { range: `bytes=${tooMany.join(",")}` } });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe(String(size));
    expect(Buffer.from(await whole.arrayBuffer()).equals(newBytes)).toBe(true);
    // Exactly the limit is still answered in parts.
    const enough = await fetch(fileUrl(), {
      headers: { range: `bytes=${tooMany.slice(0, MAX_RANGES).join(",")}` },
    });
    expect(enough.status).toBe(206);
    await enough.arrayBuffer();
  });

  it("shows on the release page how its files were delivered, with the bytes sent and saved", async () => {
    const url = `${server.url}/releases/${OLD}/Pinout-Setup-${OLD}.exe`;
    const size = oldBytes.length;
    for (let index = 0; index < 2; index += 1)
      expect((await (await fetch(url)).arrayBuffer()).byteLength).toBe(size);
    const parts = await fetch(url, { headers: { range: "bytes=0-999,5000-5999,-500" } });
    expect(parts.status).toBe(206);
    await parts.arrayBuffer();
    // Neither a HEAD nor a blockmap is a delivery.
    await fetch(url, { method: "HEAD" });
    await (await fetch(`${url}.blockmap`)).arrayBuffer();
    const list = (await (
      await fetch(`${server.url}/api/admin/releases`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { releases: { id: string; version: string }[] };
    const id = list.releases.find((release) => release.version === OLD)?.id ?? "";
    const sent = 2 * size + 2500;
    const whole = 3 * size;
    await eventually(
      async () =>
        (await pageText(server, `/admin/releases/${id}`, cookie)).includes(
          `${formatBytes(sent)} sent, against ${formatBytes(whole)} had every download been the whole file: ${Math.round(((whole - sent) / whole) * 100)}% saved.`,
        ),
      10_000,
      "the release page's delivery counts",
    );
    const page = await (await getWithCookies(server, `/admin/releases/${id}`, cookie)).text();
    expect(page).toMatch(/data-testid="deliveries-windows-full">2</);
    expect(page).toMatch(/data-testid="deliveries-windows-differential">1</);
  });
});
