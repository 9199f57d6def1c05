/**
 * The reference desktop client: plays the desktop app against a running site, and documents the
 * integration by example (RFC 8252 loopback redirect + PKCE S256, token refresh, offline licence).
 *
 *   npm run desktop-client -- login --server http://127.0.0.1:3000 [--device-name "Asha's Mac"] [--platform mac] [--machine-id ID]
 *   npm run desktop-client -- me | heartbeat | release-seat | trial | refresh | usage | open-account | logout   [--server …]
 *   npm run desktop-client -- buy --plan pro-monthly | seats --team ID --seats 5 --cycle monthly
 *                              | update-payment-method | resume                 (opens the browser, waits)
 *   npm run desktop-client -- save-keys --jwks keys.json                         (online, once)
 *   npm run desktop-client -- verify-licence-file --file F --fingerprint FP --jwks keys.json   (offline)
 *
 * verify-licence-file checks a licence file from the account's Security page as an offline app
 * does: with the keys saved while online, for this computer's fingerprint, before it expires
 * (`--now` stands for the computer's clock).
 *
 * login prints the sign-in address to open in a browser (a line starting "OPEN "), as an app
 * would open it, and sends the computer's machine id (one free trial per computer: the site keeps
 * only a keyed hash of it).
 *
 * open-account prints a /login-via?token= link (2 minutes, single use); the site shows
 * "Continue as …?" and signs the browser in only when the user confirms.
 *
 * buy, seats, update-payment-method and resume ask for a link for that errand
 * (POST /api/desktop/checkout-link) with a loopback return address, print it ("OPEN "), then wait
 * (GET /api/desktop/wait) until the entitlement changes and the browser comes back through
 * "Return to the app", as an app would.
 *
 * release-seat gives back a team's floating seat, as an app does when it quits.
 *
 * Tokens are kept in --state (default .desktop-client.json, mode 0600), as an app would keep them
 * in the OS keychain.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import { createLocalJWKSet, createRemoteJWKSet, type JSONWebKeySet, jwtVerify } from "jose";

interface State {
  server: string;
  access_token: string;
  refresh_token: string;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: "string", default: process.env.PINOUT_SERVER ?? "http://127.0.0.1:3000" },
    state: { type: "string", default: process.env.DESKTOP_CLIENT_STATE ?? ".desktop-client.json" },
    "device-name": { type: "string", default: "Reference client" },
    platform: { type: "string", default: "mac" },
    "app-version": { type: "string", default: "1.0.0" },
    timeout: { type: "string", default: "300" },
    next: { type: "string", default: "/account" },
    "machine-id": { type: "string" },
    file: { type: "string" },
    fingerprint: { type: "string" },
    jwks: { type: "string", default: "licence-keys.json" },
    now: { type: "string" },
    plan: { type: "string", default: "pro-monthly" },
    team: { type: "string" },
    seats: { type: "string" },
    cycle: { type: "string", default: "monthly" },
  },
});
const command = positionals[0] ?? "help";
const server = values.server.replace(/\/+$/, "");

/**
 * What identifies this computer, as an app reads it from the OS: /etc/machine-id on Linux, else a
 * hash of the host and user (stable for the machine, never sent in the clear by a real app either).
 */
function machineId(): string {
  if (values["machine-id"]) return values["machine-id"];
  try {
    const id = fs.readFileSync("/etc/machine-id", "utf8").trim();
    if (id.length >= 8) return id;
  } catch {
    // Not Linux, or not readable: the fallback below.
  }
  return createHash("sha256").update(`${os.hostname()}:${os.userInfo().username}`).digest("hex");
}

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

function loadState(): State {
  if (!fs.existsSync(values.state)) fail(`not signed in (no ${values.state}): run login first`);
  return JSON.parse(fs.readFileSync(values.state, "utf8")) as State;
}

function saveState(state: State) {
  fs.writeFileSync(values.state, JSON.stringify(state, null, 2), { mode: 0o600 });
}

async function api(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const response = await fetch(`${server}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  return { status: response.status, json: json as Record<string, unknown> };
}

/** Waits for the browser to come back to the loopback listener with ?token=&state=. */
function waitForCallback(
  expectedState: string,
): Promise<{ redirectUri: string; token: Promise<string> }> {
  return new Promise((resolveListening) => {
    let resolveToken: (token: string) => void;
    let rejectToken: (error: Error) => void;
    const token = new Promise<string>((resolve, reject) => {
      resolveToken = resolve;
      rejectToken = reject;
    });
    const listener = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/callback") {
        // Browsers also ask for /favicon.ico: answer without an error.
        res.writeHead(url.pathname === "/favicon.ico" ? 204 : 404).end();
        return;
      }
      const ok =
        url.searchParams.get("state") === expectedState && Boolean(url.searchParams.get("token"));
      res.writeHead(ok ? 200 : 400, { "content-type": "text/html; charset=utf-8" });
      res.end(
        ok
          ? "<!doctype html><title>Signed in</title><h1>You are signed in to the app.</h1><p>You can close this tab.</p>"
          : "<!doctype html><title>Sign-in failed</title><h1>Sign-in failed</h1><p>The state did not match.</p>",
      );
      listener.close();
      if (ok) resolveToken(url.searchParams.get("token")!);
      else rejectToken(new Error("state mismatch: the callback did not come from our sign-in"));
    });
    // Loopback only, any free port (RFC 8252 §7.3).
    listener.listen(0, "127.0.0.1", () => {
      const address = listener.address();
      const port = typeof address === "object" && address ? address.port : 0;
      setTimeout(
        () => {
          listener.close();
          rejectToken(new Error("timed out waiting for the browser"));
        },
        Number(values.timeout) * 1000,
      ).unref();
      resolveListening({ redirectUri: `http://127.0.0.1:${port}/callback`, token });
    });
  });
}

/**
 * A loopback listener for "Return to the app" (issue 57, point 4): resolves `returned` with what
 * the site says was done (`?done=…`) when the browser comes back.
 */
function listenForReturn(): Promise<{
  returnUri: string;
  returned: Promise<URLSearchParams>;
  close: () => void;
}> {
  return new Promise((resolveListening) => {
    let onReturn: (query: URLSearchParams) => void = () => {};
    const returned = new Promise<URLSearchParams>((resolve) => (onReturn = resolve));
    const listener = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/return") {
        res.writeHead(url.pathname === "/favicon.ico" ? 204 : 404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        "<!doctype html><title>Back in the app</title><h1>Done: back in the app.</h1><p>You can close this tab.</p>",
      );
      onReturn(url.searchParams);
    });
    listener.listen(0, "127.0.0.1", () => {
      const address = listener.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolveListening({
        returnUri: `http://127.0.0.1:${port}/return`,
        returned,
        close: () => listener.close(),
      });
    });
  });
}

/**
 * An errand in the browser (buy, seats, payment method, resume): the link, then the wait for the
 * entitlement to change (long polls of at most 25 s) and for the browser to come back, within
 * --timeout seconds.
 */
async function errand(action: string, extra: Record<string, unknown>) {
  const state = loadState();
  const before = await api("/api/desktop/me", { token: state.access_token });
  if (before.status !== 200) fail(`me: ${before.status} ${JSON.stringify(before.json)}`);
  let tag = String(before.json.entitlement_tag);
  const { returnUri, returned, close } = await listenForReturn();
  const link = await api("/api/desktop/checkout-link", {
    token: state.access_token,
    body: { action, ...extra, return_uri: returnUri },
  });
  if (link.status !== 200) {
    close();
    fail(`checkout-link: ${link.status} ${String(link.json.error_description ?? "")}`);
  }
  console.log("Open this address in your browser to finish in the site:");
  console.log(`OPEN ${String(link.json.url)}`);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  let cameBack: URLSearchParams | null = null;
  void returned.then((query) => (cameBack = query));
  let changed = false;
  while (Date.now() < deadline && !(changed && cameBack)) {
    if (changed) {
      // Changed already: only the browser's return is awaited now.
      await Promise.race([returned, new Promise((resolve) => setTimeout(resolve, 1000))]);
      continue;
    }
    const seconds = Math.max(1, Math.min(25, Math.floor((deadline - Date.now()) / 1000)));
    const waited = await api(`/api/desktop/wait?since=${tag}&timeout=${seconds}`, {
      token: state.access_token,
    });
    if (waited.status !== 200) fail(`wait: ${waited.status} ${JSON.stringify(waited.json)}`);
    if (waited.json.changed === true) {
      changed = true;
      tag = String(waited.json.entitlement_tag);
      const entitlement = waited.json.entitlement as { plan: string; renews: boolean };
      console.log(
        `entitlement changed: plan ${entitlement.plan}${entitlement.renews ? ", renews" : ""}`,
      );
    }
  }
  close();
  const query = cameBack as URLSearchParams | null;
  if (query) console.log(`browser returned: ${query.toString()}`);
  if (!changed) fail("timed out: the entitlement did not change");
}

async function verifyLicense(license: string) {
  const keys = createRemoteJWKSet(new URL(`${server}/.well-known/jwks.json`));
  const { payload } = await jwtVerify(license, keys, {
    algorithms: ["EdDSA"],
    audience: "desktop",
  });
  return payload;
}

async function me(state: State) {
  const response = await api("/api/desktop/me", { token: state.access_token });
  if (response.status !== 200) fail(`me: ${response.status} ${JSON.stringify(response.json)}`);
  console.log(
    JSON.stringify({ user: response.json.user, entitlement: response.json.entitlement }, null, 2),
  );
  const trial = response.json.trial as { ends_at: string; days_left: number } | null;
  if (trial)
    console.log(
      `trial: ${trial.days_left === 1 ? "1 day" : `${trial.days_left} days`} left (until ${trial.ends_at})`,
    );
  const payload = await verifyLicense(String(response.json.license));
  console.log(
    `license: valid (EdDSA), offline until ${new Date((payload.exp ?? 0) * 1000).toISOString()}`,
  );
}

async function login() {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const state = randomBytes(16).toString("base64url");
  const { redirectUri, token } = await waitForCallback(state);
  const url = new URL(`${server}/login-via`);
  url.search = new URLSearchParams({
    client: "desktop",
    redirect_uri: redirectUri,
    state,
    code_challenge: challenge,
    code_challenge_method: "S256",
    device_name: values["device-name"],
    platform: values.platform,
  }).toString();
  console.log("Open this address in your browser to sign in:");
  console.log(`OPEN ${url.toString()}`);
  const handoff = await token;
  const exchanged = await api("/api/desktop/token", {
    body: {
      token: handoff,
      code_verifier: verifier,
      device_name: values["device-name"],
      platform: values.platform,
      app_version: values["app-version"],
      machine_id: machineId(),
    },
  });
  if (exchanged.status !== 200)
    fail(`token exchange: ${exchanged.status} ${JSON.stringify(exchanged.json)}`);
  const saved = {
    server,
    access_token: String(exchanged.json.access_token),
    refresh_token: String(exchanged.json.refresh_token),
  };
  saveState(saved);
  console.log(`signed in as ${(exchanged.json.user as { email: string }).email}`);
  await me(saved);
}

async function main() {
  switch (command) {
    case "login":
      return login();
    case "me":
      return me(loadState());
    case "heartbeat": {
      // What a running app does every check_in.interval_seconds (issue 57): the entitlement
      // now, or why this machine has no slot.
      const state = loadState();
      const response = await api("/api/desktop/heartbeat", { token: state.access_token, body: {} });
      if (response.status !== 200)
        fail(`heartbeat: ${response.status} ${JSON.stringify(response.json)}`);
      const checkIn = response.json.check_in as { interval_seconds: number };
      const entitlement = response.json.entitlement as { plan: string };
      console.log(
        `checked in: plan ${entitlement.plan}; next check-in in ${Math.round(checkIn.interval_seconds / 3600)} h`,
      );
      // A team's floating seat (issue 57): held until when, or why none is free.
      const seat = response.json.floating_seat as
        null | { status: "held"; lease_until: string } | { status: "refused"; message: string };
      if (seat?.status === "held") console.log(`floating seat held until ${seat.lease_until}`);
      if (seat?.status === "refused") console.log(`floating seat refused: ${seat.message}`);
      return;
    }
    case "release-seat": {
      // What an app does when it quits: a team's floating seat is free for another machine.
      const state = loadState();
      const response = await api("/api/desktop/release-seat", {
        token: state.access_token,
        body: {},
      });
      if (response.status !== 200) fail(`release-seat: ${response.status}`);
      console.log("floating seat given back");
      return;
    }
    case "buy":
      return errand("buy", { plan: values.plan });
    case "seats":
      if (!values.team || !values.seats) fail("give --team and --seats");
      return errand("seats", {
        team_id: values.team,
        seats: Number(values.seats),
        cycle: values.cycle,
      });
    case "update-payment-method":
    case "resume":
      return errand(command, {});
    case "trial": {
      // The free Pro trial from the app (one per account, mailbox and computer).
      const state = loadState();
      const response = await api("/api/desktop/trial", { token: state.access_token, body: {} });
      if (response.status !== 200)
        fail(`trial: ${response.status} ${String(response.json.error_description ?? "")}`);
      const trial = response.json.trial as { ends_at: string; days_left: number };
      console.log(`trial started: ${trial.days_left} days, until ${trial.ends_at}`);
      return;
    }
    case "save-keys": {
      // While online: the site's licence keys, kept for verifying licence files offline.
      const response = await api("/.well-known/jwks.json");
      if (response.status !== 200) fail(`jwks: ${response.status}`);
      fs.writeFileSync(values.jwks, JSON.stringify(response.json, null, 2));
      console.log(`saved ${(response.json.keys as unknown[]).length} key(s) to ${values.jwks}`);
      return;
    }
    case "verify-licence-file": {
      // Offline: no request to the site at all.
      if (!values.file || !values.fingerprint) fail("give --file and --fingerprint");
      const file = JSON.parse(fs.readFileSync(values.file, "utf8")) as {
        format: string;
        licence: string;
      };
      if (file.format !== "pinout-licence-file/1") fail(`not a licence file: ${file.format}`);
      const keys = JSON.parse(fs.readFileSync(values.jwks, "utf8")) as JSONWebKeySet;
      const now = values.now ? new Date(values.now) : new Date();
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jwtVerify(file.licence, createLocalJWKSet(keys), {
          algorithms: ["EdDSA"],
          audience: "desktop-offline",
          currentDate: now,
        }));
      } catch (error) {
        fail(`licence file: ${error instanceof Error ? error.message : String(error)}`);
      }
      const machine = payload.machine as { fingerprint_sha256: string; name: string };
      const ours = createHash("sha256").update(values.fingerprint.trim()).digest("hex");
      if (machine.fingerprint_sha256 !== ours) fail("licence file: made for another computer");
      const entitlement = payload.entitlement as { plan: string };
      console.log(
        `licence file: valid for ${machine.name}, plan ${entitlement.plan}, until ${new Date(Number(payload.exp) * 1000).toISOString()}`,
      );
      return;
    }
    case "refresh": {
      const state = loadState();
      const response = await api("/api/desktop/refresh", {
        body: { refresh_token: state.refresh_token },
      });
      if (response.status !== 200)
        fail(`refresh: ${response.status} ${JSON.stringify(response.json)}`);
      saveState({
        ...state,
        access_token: String(response.json.access_token),
        refresh_token: String(response.json.refresh_token),
      });
      console.log("tokens refreshed");
      return;
    }
    case "usage": {
      const state = loadState();
      const events = [
        { id: randomUUID(), feature: "serial_monitor", count: 3, at: new Date().toISOString() },
        { id: randomUUID(), feature: "pin_map", count: 12, at: new Date().toISOString() },
      ];
      const response = await api("/api/desktop/usage", {
        token: state.access_token,
        body: { events },
      });
      if (response.status !== 200)
        fail(`usage: ${response.status} ${JSON.stringify(response.json)}`);
      console.log(JSON.stringify(response.json));
      return;
    }
    case "open-account": {
      const state = loadState();
      const response = await api("/api/desktop/web-session-token", {
        token: state.access_token,
        body: {},
      });
      if (response.status !== 200)
        fail(`web-session-token: ${response.status} ${JSON.stringify(response.json)}`);
      const url = new URL(`${server}/login-via`);
      url.search = new URLSearchParams({
        token: String(response.json.token),
        next: values.next,
      }).toString();
      console.log("Open this address in your browser and confirm the account to sign it in:");
      console.log(`OPEN ${url.toString()}`);
      return;
    }
    case "logout": {
      const state = loadState();
      const response = await api("/api/desktop/logout", { token: state.access_token, body: {} });
      fs.rmSync(values.state, { force: true });
      console.log(
        response.status === 200
          ? "signed out"
          : `server said ${response.status}; local tokens removed`,
      );
      return;
    }
    default:
      console.log(
        "usage: npm run desktop-client -- <login|me|heartbeat|release-seat|buy|seats|update-payment-method|resume|trial|refresh|usage|open-account|logout|save-keys|verify-licence-file> [--server URL] [--state FILE]",
      );
      process.exitCode = command === "help" ? 0 : 2;
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
