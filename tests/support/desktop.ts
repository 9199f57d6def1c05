/** The desktop app's sign-in handoff (PKCE) through HTTP, as the app does it, for integration tests. */
import { createHash, randomBytes } from "node:crypto";
import { BROWSER_HEADERS } from "./auth";
import type { RunningTestServer } from "./server";

export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** The signed-in browser's call for a handoff token bound to `challenge` (the answer as it is). */
export function requestHandoff(server: RunningTestServer, cookie: string, challenge: string) {
  return fetch(`${server.url}/api/functions/generateAuthRedirectToken`, {
    method: "POST",
    headers: { ...BROWSER_HEADERS, "content-type": "application/json", origin: server.url, cookie },
    body: JSON.stringify({
      data: {
        redirect_uri: "http://127.0.0.1:53682/callback",
        state: "state-1234567",
        code_challenge: challenge,
        code_challenge_method: "S256",
      },
    }),
  });
}

/** The web → app handoff a signed-in browser makes for the app: a token and the app's verifier. */
export async function desktopHandoff(
  server: RunningTestServer,
  cookie: string,
): Promise<{ token: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const handoff = await requestHandoff(server, cookie, challenge);
  if (handoff.status !== 200) throw new Error(`handoff failed: ${handoff.status}`);
  const { token } = ((await handoff.json()) as { result: { token: string } }).result;
  return { token, verifier };
}

/** The app's half: exchanges the handoff token and its verifier for device tokens. */
export function exchangeHandoff(
  server: RunningTestServer,
  handoff: { token: string; verifier: string },
  name: string,
  extra: { machine_id?: string } = {},
) {
  return fetch(`${server.url}/api/desktop/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      token: handoff.token,
      code_verifier: handoff.verifier,
      device_name: name,
      platform: "mac",
      app_version: "2.1.0",
      ...extra,
    }),
  });
}

/** Signs a desktop app in the way the app does it (handoff token, PKCE exchange); its access token. */
export async function signInDevice(
  server: RunningTestServer,
  cookie: string,
  name: string,
  extra: { machine_id?: string } = {},
): Promise<string> {
  const exchanged = await exchangeHandoff(
    server,
    await desktopHandoff(server, cookie),
    name,
    extra,
  );
  if (exchanged.status !== 200) throw new Error(`token exchange failed: ${exchanged.status}`);
  return ((await exchanged.json()) as { access_token: string }).access_token;
}
