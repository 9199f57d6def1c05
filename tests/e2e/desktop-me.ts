import { createHash, randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** Signs the desktop app in with this browser's session (handoff + PKCE); its access token. */
export async function signInDesktopApp(
  page: Page,
  device: { name: string; platform: "mac" | "windows" } = { name: "E2E Mac", platform: "mac" },
): Promise<string> {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const handoff = await page.request.post("/api/functions/generateAuthRedirectToken", {
    data: {
      data: {
        redirect_uri: "http://127.0.0.1:53682/callback",
        state: "state-1234567",
        code_challenge: challenge,
        code_challenge_method: "S256",
      },
    },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(handoff.status()).toBe(200);
  const { token } = ((await handoff.json()) as { result: { token: string } }).result;
  const exchanged = await page.request.post("/api/desktop/token", {
    data: {
      token,
      code_verifier: verifier,
      device_name: device.name,
      platform: device.platform,
      app_version: "2.1.0",
    },
  });
  expect(exchanged.status()).toBe(200);
  return ((await exchanged.json()) as { access_token: string }).access_token;
}

/** Signs the desktop app in with this browser's session and returns its `me`. */
export async function desktopMe(page: Page) {
  const accessToken = await signInDesktopApp(page);
  const me = await page.request.get("/api/desktop/me", {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return (await me.json()) as { entitlement: { plan: string; device_limit: number } };
}
