/**
 * Issue 57, point 3: licence files for computers without internet. A Pro customer downloads one
 * from the Security page for a fingerprint; the reference client verifies it offline with the keys
 * it saved from the JWKS, refuses it for another fingerprint and after its expiry; the file holds
 * one of the plan's device slots until then, and a file past the slots is refused with words.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, signUpVerified } from "../support/auth";
import { buyThroughSandbox } from "../support/billing";
import { runScript } from "../support/cli";
import { desktopHandoff, exchangeHandoff, signInDevice } from "../support/desktop";
import { httpEngine } from "../support/engines";
import { pageText } from "../support/pages";
import { type RunningTestServer, startServerOn } from "../support/server";

describe("licence files", () => {
  let server: RunningTestServer;
  let folder: string;
  beforeAll(async () => {
    server = await startServerOn(httpEngine(), { env: { AUTH_RATE_LIMIT: "100" } });
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "licence-files-"));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const client = (args: string[]) =>
    runScript("scripts/desktop-client.ts", [...args, "--server", server.url], {});

  it("verifies offline for its computer until it ends, and holds a device slot", async () => {
    const cookie = await signUpVerified(server, {
      name: "Farah",
      email: "farah@example.com",
      password: "licence-files-password-1",
    });
    // On Free: part of Pro, said so.
    const free = await postForm(server, "/account/licence-file", cookie, {
      intent: "licence-file",
      name: "Lab bench 2",
      fingerprint: "LAB-PC-0001-ABCD",
      days: "30",
    });
    expect(free.status).toBe(303);
    expect(free.headers.get("location")).toBe("/account/security?licence=not-pro#licence-files");
    expect(await pageText(server, "/account/security?licence=not-pro", cookie)).toContain(
      "Licence files for offline computers are part of Pro.",
    );
    // Words come from the site only: an unknown code in the address shows nothing.
    expect(await pageText(server, "/account/security?licence=Call+us", cookie)).not.toContain(
      "Call us",
    );

    await buyThroughSandbox(server, cookie);
    const response = await postForm(server, "/account/licence-file", cookie, {
      intent: "licence-file",
      name: "Lab bench 2",
      fingerprint: "LAB-PC-0001-ABCD",
      days: "30",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      'attachment; filename="pinout-licence-lab-bench-2.json"',
    );
    const file = (await response.json()) as { format: string; expires_at: string; licence: string };
    expect(file.format).toBe("pinout-licence-file/1");
    const expires = new Date(file.expires_at).getTime();
    expect(expires).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    const filePath = path.join(folder, "licence.json");
    fs.writeFileSync(filePath, JSON.stringify(file));

    // The app saves the keys while online, then verifies offline.
    const jwks = path.join(folder, "keys.json");
    expect((await client(["save-keys", "--jwks", jwks])).code).toBe(0);
    const verify = (fingerprint: string, now?: string) =>
      runScript(
        "scripts/desktop-client.ts",
        [
          "verify-licence-file",
          "--file",
          filePath,
          "--fingerprint",
          fingerprint,
          "--jwks",
          jwks,
          // No site at all: an address nothing listens on.
          "--server",
          "http://127.0.0.1:9",
          ...(now ? ["--now", now] : []),
        ],
        {},
      );
    const ok = await verify("LAB-PC-0001-ABCD");
    expect(ok.code, ok.output).toBe(0);
    expect(ok.output).toContain("licence file: valid for Lab bench 2, plan pro-monthly");
    const other = await verify("LAB-PC-0002-WXYZ");
    expect(other.code).toBe(1);
    expect(other.output).toContain("made for another computer");
    const later = await verify("LAB-PC-0001-ABCD", new Date(expires + 60_000).toISOString());
    expect(later.code).toBe(1);
    expect(later.output).toMatch(/licence file: .*"exp" claim timestamp check failed/);

    // It holds a slot: two computers sign in beside it, a third is refused, and so is a
    // second file, with words.
    await signInDevice(server, cookie, "Desk one");
    await signInDevice(server, cookie, "Desk two");
    const third = await exchangeHandoff(server, await desktopHandoff(server, cookie), "Desk three");
    expect(third.status).toBe(403);
    const full = await postForm(server, "/account/licence-file", cookie, {
      intent: "licence-file",
      name: "Lab bench 3",
      fingerprint: "LAB-PC-0003-EFGH",
      days: "7",
    });
    expect(full.headers.get("location")).toBe("/account/security?licence=full#licence-files");
    const invalid = await postForm(server, "/account/licence-file", cookie, {
      intent: "licence-file",
      name: "",
      fingerprint: "short",
      days: "7",
    });
    expect(invalid.headers.get("location")).toBe("/account/security?licence=invalid#licence-files");
    expect(await pageText(server, "/account/security", cookie)).toMatch(
      /Lab bench 2 · valid until/,
    );
  });
});
