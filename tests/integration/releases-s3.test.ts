import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { postForm, signUpVerified } from "../support/auth";
import { runScript } from "../support/cli";
import { type LocalS3, startS3 } from "../support/s3";
import { httpEngine } from "../support/engines";
import { type RunningTestServer, startServerOn } from "../support/server";

/**
 * Release files in S3-compatible storage (a local s3rver from the npm registry): uploads stream
 * into the bucket, feeds point at the site, and downloads are redirects to presigned URLs.
 */
describe("release files in S3-compatible storage", () => {
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-s3-files-"));
  let s3: LocalS3 | undefined;
  let endpoint = "";
  let server: RunningTestServer;
  let token = "";

  beforeAll(async () => {
    s3 = await startS3("pinout-releases");
    endpoint = s3.endpoint;
    server = await startServerOn(httpEngine(), {
      env: {
        ADMIN_EMAILS: "ops@example.com",
        S3_BUCKET: "pinout-releases",
        ...s3.env,
      },
    });
    const cookie = await signUpVerified(server, {
      name: "Ops",
      email: "ops@example.com",
      password: "s3-password-123",
    });
    const created = await postForm(server, "/admin/releases", cookie, {
      intent: "token",
      name: "ci",
    });
    token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
  });
  afterAll(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it("publishes into the bucket, serves the feed, and downloads by presigned redirect", async () => {
    const zip = path.join(filesDir, "Pinout-3.0.0-mac.zip");
    const dmg = path.join(filesDir, "Pinout-3.0.0.dmg");
    fs.writeFileSync(zip, Buffer.from("s3 zip ".repeat(40_000)));
    fs.writeFileSync(dmg, Buffer.alloc(300_000, 3));
    const published = await runScript(
      "scripts/release-publish.ts",
      ["--version", "3.0.0", "--file", dmg, "--file", zip, "--site", server.url, "--token", token],
      {},
    );
    expect(published.output).toContain("published 3.0.0 (stable)");
    // The bytes are in the bucket, not on the site's disk.
    expect(fs.existsSync(path.join(server.dataDir, "releases", "3.0.0"))).toBe(false);

    const feed = parse(
      await (await fetch(`${server.url}/updates/stable/latest-mac.yml`)).text(),
    ) as { version: string; files: { url: string; sha512: string; size: number }[] };
    expect(feed.version).toBe("3.0.0");
    const first = feed.files[0];
    if (!first) throw new Error("no file in the feed");
    const redirect = await fetch(new URL(first.url, server.url), { redirect: "manual" });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("location") ?? "";
    expect(location.startsWith(`${endpoint}/pinout-releases/3.0.0/`)).toBe(true);
    expect(location).toContain("X-Amz-Signature=");
    const bytes = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(bytes.length).toBe(first.size);
    expect(createHash("sha512").update(bytes).digest("base64")).toBe(first.sha512);

    const installer = await fetch(`${server.url}/download/mac/3.0.0`, { redirect: "manual" });
    expect(installer.status).toBe(302);
    expect(installer.headers.get("location")).toContain("/pinout-releases/3.0.0/Pinout-3.0.0.dmg");
  });
});
