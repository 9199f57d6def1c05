/**
 * The update feeds are answered before express and React Router (server/fast-answers.ts,
 * docs/decisions/0032). What a client gets must not depend on which way its request went: every
 * feed, with and without a client id, a staging id, a compressed encoding, HEAD and If-None-Match,
 * on a staged rollout, answers with the same status, the same headers and the same bytes as the
 * same request answered by React Router. A GET carrying an (empty) body is never answered fast, so
 * it shows what the app answers.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import { runScript } from "../support/cli";
import { engines } from "../support/engines";
import { raw } from "../support/raw-http";
import { type RunningTestServer, startServer } from "../support/server";

const VERSION = "6.1.0";

function releaseFiles(version: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-fast-files-"));
  const files: [string, Buffer | string][] = [
    [`Pinout-${version}.dmg`, Buffer.alloc(20_000, 1)],
    [`Pinout-${version}-mac.zip`, Buffer.alloc(10_000, 2)],
    [`Pinout-Setup-${version}.exe`, Buffer.alloc(15_000, 3)],
    [`Pinout-Setup-${version}.exe.blockmap`, "blockmap"],
    [`Pinout-${version}.app.tar.gz`, Buffer.alloc(10_000, 4)],
    [`Pinout-${version}.app.tar.gz.sig`, "untrusted comment: signature\nRUQmac=="],
    [`Pinout_${version}_x64_en-US.msi`, Buffer.alloc(10_000, 5)],
    [`Pinout_${version}_x64_en-US.msi.sig`, "untrusted comment: signature\nRUQwin=="],
  ];
  return files.flatMap(([name, body]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, body);
    return ["--file", file];
  });
}

describe.each(engines())("update feeds answered before express on $name", (engine) => {
  let server: RunningTestServer;

  beforeAll(async () => {
    server = await startServer({
      env: {
        DATABASE_URL: await engine.freshDatabaseUrl(),
        ADMIN_EMAILS: "ops@example.com",
        // Some 700 checks from one address: the comparison, not the update-check limit.
        UPDATES_RATE_LIMIT: "100000",
      },
    });
    const cookie = await signUpVerified(server, {
      name: "Ops",
      email: "ops@example.com",
      password: "fast-answers-pw-1",
    });
    const created = await postForm(server, "/admin/releases", cookie, {
      intent: "token",
      name: "t",
    });
    const token = /pinout_admin_[A-Za-z0-9_-]+/.exec(await created.text())?.[0] ?? "";
    const published = await runScript(
      "scripts/release-publish.ts",
      ["--version", VERSION, "--notes", "Fast **notes**.", "--site", server.url]
        // A staged rollout: which clients get it depends on their bucket.
        .concat(["--token", token, "--channel", "beta", "--rollout", "50"])
        .concat(releaseFiles(VERSION)),
      {},
    );
    expect(published.output).toContain(`published ${VERSION}`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers every feed exactly as React Router does, and answers it fast", async () => {
    const paths = ["stable", "beta"].flatMap((channel) =>
      ["latest.yml", "latest-mac.yml", "appcast.xml", "tauri.json"].flatMap((feed) => [
        `/updates/${channel}/${feed}`,
        ...["a", "b", "c", "d"].map((id) => `/updates/${channel}/${feed}?client_id=${id}`),
      ]),
    );
    for (const id of ["a", "b", "c", "d"])
      for (const version of ["6.0.0", VERSION])
        paths.push(
          `/updates/tauri/darwin/aarch64/${version}?channel=beta&client_id=${id}`,
          `/updates/tauri/windows/x86_64/${version}?channel=beta&client_id=${id}`,
        );
    paths.push(
      "/updates/tauri/darwin/aarch64/1.0.0",
      "/updates/UPDATES/latest.yml",
      "/UPDATES/beta/appcast.xml/",
      "/updates/beta/latest%2Dmac.yml",
      "/updates/nightly/latest.yml",
      "/updates/tauri/linux/x86_64/1.0.0",
      "/updates/tauri/darwin/aarch64/not-a-version",
    );
    const variants = [
      "GET|",
      "GET|Accept-Encoding: gzip, deflate, br\r\n",
      "GET|Accept-Encoding: gzip;q=1, br;q=0.5\r\n",
      "GET|Accept-Encoding: deflate\r\n",
      "GET|X-User-Staging-Id: e\r\n",
      "HEAD|",
    ];
    const port = Number(new URL(server.url).port);
    let compared = 0;
    for (const target of paths) {
      for (const variant of variants) {
        const [method, extra] = variant.split("|") as [string, string];
        const head = `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}`;
        const fast = await raw(port, `${head}\r\n`);
        const app = await raw(port, `${head}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`);
        expect(fast, `${variant} ${target}`).toEqual(app);
        compared++;
        const etag = /^etag: (.+)$/m.exec(fast.headers.join("\n"))?.[1];
        if (!etag || method !== "GET") continue;
        // The ETag they share is honoured the same way: 304 with the same headers.
        const revalidate = `${head}If-None-Match: ${etag}\r\n`;
        const fast304 = await raw(port, `${revalidate}\r\n`);
        expect(fast304.status).toBe("HTTP/1.1 304 Not Modified");
        expect(fast304).toEqual(
          await raw(port, `${revalidate}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`),
        );
      }
    }
    expect(compared).toBe(paths.length * variants.length);
    // The feeds were answered before express (its log line says so), the refusals by the app.
    const fastPaths = () =>
      server
        .logs()
        .filter((line) => line.msg === "request" && line.answer === "fast")
        .map((line) => line.path);
    const answeredFast = ["/updates/beta/appcast.xml", `/updates/tauri/darwin/aarch64/${VERSION}`];
    await expect.poll(fastPaths).toEqual(expect.arrayContaining(answeredFast));
    expect(fastPaths()).not.toContain("/updates/nightly/latest.yml");
    expect(fastPaths()).not.toContain("/updates/tauri/darwin/aarch64/not-a-version");
  });
});
