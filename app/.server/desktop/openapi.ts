/**
 * The desktop API described (issue 57, point 6): an OpenAPI 3.1 document of every
 * `/api/desktop/*` endpoint, its requests, answers and errors, served at
 * `/api/desktop/openapi.json`. Enumerations come from the code that decides them (plans, trial
 * refusals, errands), so the document cannot name a value the site does not have;
 * `tests/integration/desktop-openapi.test.ts` validates the document with an OpenAPI validator,
 * checks that its paths are exactly the routes under `/api/desktop`, and checks every answer the
 * endpoints give in the tests against it.
 */
import { site } from "~/config/site";
import { PAID_PLAN_IDS } from "~/lib/plans";
import { TRIAL_REFUSALS } from "../trials/trials.server";
import { ACCESS_TOKEN_SECONDS } from "./devices.server";
import { WEB_SESSION_TTL_MS } from "./handoff.server";

/** The codes of the `error` field, with when each is given (the desktop API's error catalogue). */
export const DESKTOP_ERRORS = {
  invalid_request:
    "The request is malformed: its body is not JSON, is too large, or a field is missing or out of range (error_description says which).",
  invalid_grant:
    "A handoff or refresh token is unknown, used or expired, or the device was signed out.",
  invalid_token:
    "The access token is missing, expired or revoked (RFC 6750); refresh it or sign in again.",
  device_limit_reached:
    "The plan's device slots are all in use by other machines; manage_devices_url says where to sign one out.",
  trial_refused: "The free trial cannot start; reason says why, in the words to show.",
  forbidden:
    "The signed-in person may not do this (a team's seats are its owner's and billing managers').",
  rate_limited: "Too many requests from this client; wait for Retry-After seconds.",
} as const;

const json = (schema: object) => ({ "application/json": { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (description: string, schema: object) => ({ description, content: json(schema) });
const refusal = (description: string) => answer(description, ref("Error"));
const bearer = [{ deviceToken: [] }];
const common = {
  "401": { $ref: "#/components/responses/InvalidToken" },
  "429": { $ref: "#/components/responses/RateLimited" },
};
const body = (schema: object) => ({ required: true, content: json(schema) });
/** What an endpoint that reads a JSON body may also answer before it looks at the fields. */
const bodyRefusals = {
  "413": { $ref: "#/components/responses/TooLarge" },
  "415": { $ref: "#/components/responses/NotJson" },
};

const dateTime = { type: "string", format: "date-time" };
const nullableDateTime = { type: ["string", "null"], format: "date-time" };

export function desktopOpenApi() {
  return {
    openapi: "3.1.0",
    info: {
      title: `${site.product.name} desktop API`,
      version: "1",
      description:
        "What the desktop app calls: sign-in (loopback + PKCE handoff), its entitlement and offline licence, check-ins, team floating seats, the free trial, usage, and links that open the browser for a purchase. Every answer is JSON with Cache-Control: no-store. Errors are {error, error_description} with a code from components.schemas.Error.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        deviceToken: {
          type: "http",
          scheme: "bearer",
          description: `The device's access token from /api/desktop/token (valid ${ACCESS_TOKEN_SECONDS / 60} minutes; renew with /api/desktop/refresh).`,
        },
      },
      responses: {
        InvalidToken: refusal("invalid_token: missing, expired or revoked access token."),
        RateLimited: {
          ...refusal("rate_limited: too many requests from this client."),
          headers: { "Retry-After": { schema: { type: "integer", minimum: 1 } } },
        },
        BadRequest: refusal("invalid_request: the body or query is not what the endpoint takes."),
        NotJson: refusal("invalid_request: the body is not application/json."),
        TooLarge: answer(
          "The body is over 64 KB: refused before the endpoint reads it, with the limit in words.",
          { type: "object", required: ["error"], properties: { error: { type: "string" } } },
        ),
        DeviceLimit: refusal(
          "device_limit_reached: other machines hold every slot of the plan; error_description names them and where to sign one out.",
        ),
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error", "error_description"],
          properties: {
            error: { enum: Object.keys(DESKTOP_ERRORS), description: "The error catalogue." },
            error_description: { type: "string" },
            manage_devices_url: { type: "string" },
            reason: { enum: Object.keys(TRIAL_REFUSALS) },
            pricing_url: { type: "string" },
          },
        },
        User: {
          type: "object",
          required: ["id", "email", "name"],
          properties: {
            id: { type: "string" },
            email: { type: "string" },
            name: { type: "string" },
          },
        },
        TokenPair: {
          type: "object",
          required: ["access_token", "refresh_token", "token_type", "expires_in"],
          properties: {
            access_token: { type: "string" },
            refresh_token: { type: "string" },
            token_type: { const: "Bearer" },
            expires_in: { type: "integer", const: ACCESS_TOKEN_SECONDS },
          },
        },
        Team: {
          type: "object",
          required: ["id", "name"],
          properties: {
            id: { type: "string" },
            name: { type: "string" },
            floating: {
              const: true,
              description: "The team's seats float: Pro while a lease is held.",
            },
          },
        },
        Entitlement: {
          type: "object",
          required: ["plan", "status", "features", "device_limit", "expires_at", "renews"],
          properties: {
            plan: { enum: ["free", ...PAID_PLAN_IDS] },
            status: { const: "active" },
            features: { type: "array", items: { type: "string" } },
            device_limit: { type: "integer", minimum: 1 },
            expires_at: { ...nullableDateTime, description: "null: Free, which does not end." },
            renews: { type: "boolean" },
            paid_until: {
              ...dateTime,
              description: "Pro goes on only through a first charge not made yet.",
            },
            team: { ...ref("Team"), description: "The team whose seat gives the plan." },
            lease_until: {
              ...dateTime,
              description:
                "A team's floating seat: this machine holds it until then unless it checks in.",
            },
          },
        },
        Me: {
          type: "object",
          required: [
            "user",
            "device",
            "entitlement",
            "entitlement_tag",
            "license",
            "update",
            "trial",
            "check_in",
          ],
          properties: {
            user: ref("User"),
            device: {
              type: "object",
              required: ["id", "name", "platform"],
              properties: {
                id: { type: "string" },
                name: { type: "string" },
                platform: { type: "string" },
              },
            },
            entitlement: ref("Entitlement"),
            entitlement_tag: {
              type: "string",
              pattern: "^[0-9a-f]{16}$",
              description: "Changes whenever the entitlement does: give it to /api/desktop/wait.",
            },
            license: {
              type: "string",
              description:
                "A compact JWS (EdDSA) of the entitlement for offline use; verify with /.well-known/jwks.json.",
            },
            update: {
              type: "object",
              required: ["latest", "minimum", "required"],
              properties: {
                latest: { type: ["string", "null"] },
                minimum: { type: ["string", "null"] },
                required: { type: "boolean" },
              },
            },
            trial: {
              oneOf: [
                { type: "null" },
                {
                  type: "object",
                  required: ["ends_at", "days_left"],
                  properties: { ends_at: dateTime, days_left: { type: "integer", minimum: 0 } },
                },
              ],
            },
            check_in: {
              type: "object",
              required: ["interval_seconds", "silent_after_seconds"],
              properties: {
                interval_seconds: { type: "integer", minimum: 1 },
                silent_after_seconds: { type: "integer", minimum: 1 },
              },
            },
          },
        },
        FloatingSeat: {
          description: "A team's floating seat at this check-in; null when none is involved.",
          oneOf: [
            { type: "null" },
            {
              type: "object",
              required: ["status", "team", "lease_until", "overage"],
              properties: {
                status: { const: "held" },
                team: ref("Team"),
                lease_until: dateTime,
                overage: {
                  type: "boolean",
                  description: "Admitted beyond the seats by the overage allowance.",
                },
              },
            },
            {
              type: "object",
              required: ["status", "team", "seats", "machines_allowed", "message"],
              properties: {
                status: { const: "refused" },
                team: ref("Team"),
                seats: { type: "integer", minimum: 1 },
                machines_allowed: { type: "integer", minimum: 1 },
                message: { type: "string", description: "The words to show." },
              },
            },
          ],
        },
        Ok: { type: "object", required: ["ok"], properties: { ok: { const: true } } },
      },
    },
    paths: {
      "/api/desktop/token": {
        post: {
          summary: "Exchange a sign-in handoff token and its PKCE verifier for the device's tokens",
          requestBody: body({
            type: "object",
            required: ["token", "code_verifier", "device_name", "platform", "app_version"],
            properties: {
              token: {
                type: "string",
                maxLength: 200,
                description: "From the loopback or scheme callback of /login-via.",
              },
              code_verifier: { type: "string", maxLength: 200 },
              device_name: { type: "string", minLength: 1, maxLength: 100 },
              platform: { enum: ["mac", "windows"] },
              app_version: { type: "string", minLength: 1, maxLength: 50 },
              machine_id: {
                type: "string",
                minLength: 8,
                maxLength: 200,
                description:
                  "The computer's stable id (one free trial per computer); only a keyed hash is kept.",
              },
            },
          }),
          responses: {
            "200": answer("The device is signed in.", {
              allOf: [ref("TokenPair")],
              type: "object",
              required: ["user"],
              properties: { user: ref("User") },
            }),
            "400": refusal(
              "invalid_request or invalid_grant (unknown, used or expired token, or a wrong verifier).",
            ),
            "403": { $ref: "#/components/responses/DeviceLimit" },
            ...bodyRefusals,
            "429": common["429"],
          },
        },
      },
      "/api/desktop/refresh": {
        post: {
          summary: "Rotate the token pair; a refresh token used twice signs the device out",
          requestBody: body({
            type: "object",
            required: ["refresh_token"],
            properties: { refresh_token: { type: "string", minLength: 1, maxLength: 200 } },
          }),
          responses: {
            "200": answer("New tokens.", ref("TokenPair")),
            "400": refusal("invalid_request or invalid_grant."),
            ...bodyRefusals,
            "429": common["429"],
          },
        },
      },
      "/api/desktop/me": {
        get: {
          summary: "Who is signed in, the entitlement, an offline licence and update status",
          security: bearer,
          parameters: [
            { name: "X-App-Version", in: "header", required: false, schema: { type: "string" } },
          ],
          responses: {
            "200": answer("The device's answer.", ref("Me")),
            "403": { $ref: "#/components/responses/DeviceLimit" },
            ...common,
          },
        },
      },
      "/api/desktop/heartbeat": {
        post: {
          summary: "Check in: the answer of /me, after taking or renewing a team's floating seat",
          description:
            "Every check_in.interval_seconds. A machine silent past check_in.silent_after_seconds lost its slot; its check-in revives it while one is free and answers 403 device_limit_reached while none is.",
          security: bearer,
          responses: {
            "200": answer("Checked in.", {
              allOf: [ref("Me")],
              type: "object",
              required: ["floating_seat"],
              properties: { floating_seat: ref("FloatingSeat") },
            }),
            "403": { $ref: "#/components/responses/DeviceLimit" },
            ...common,
          },
        },
      },
      "/api/desktop/release-seat": {
        post: {
          summary:
            "Give back a team's floating seat (the app is quitting); the device stays signed in",
          security: bearer,
          responses: { "200": answer("Given back, if one was held.", ref("Ok")), ...common },
        },
      },
      "/api/desktop/usage": {
        post: {
          summary: "Report feature usage; an event id sent again is ignored",
          security: bearer,
          requestBody: body({
            type: "object",
            required: ["events"],
            properties: {
              events: {
                type: "array",
                minItems: 1,
                maxItems: 500,
                items: {
                  type: "object",
                  required: ["id", "feature", "count", "at"],
                  properties: {
                    id: { type: "string", minLength: 1, maxLength: 100 },
                    feature: { type: "string", pattern: "^[a-z0-9_.-]{1,64}$" },
                    count: { type: "integer", minimum: 1, maximum: 1_000_000 },
                    at: dateTime,
                  },
                },
              },
            },
          }),
          responses: {
            "200": answer("Stored.", {
              type: "object",
              required: ["received", "stored"],
              properties: { received: { type: "integer" }, stored: { type: "integer" } },
            }),
            "400": { $ref: "#/components/responses/BadRequest" },
            ...bodyRefusals,
            ...common,
          },
        },
      },
      "/api/desktop/logout": {
        post: {
          summary:
            "Sign this device out; its tokens stop working and a floating seat it held is freed",
          security: bearer,
          responses: { "200": answer("Signed out.", ref("Ok")), ...common },
        },
      },
      "/api/desktop/trial": {
        post: {
          summary: "Start the free Pro trial (one per account, mailbox and computer)",
          security: bearer,
          responses: {
            "200": answer("Started; the next /me carries Pro.", {
              type: "object",
              required: ["trial"],
              properties: {
                trial: {
                  type: "object",
                  required: ["ends_at", "days_left"],
                  properties: { ends_at: dateTime, days_left: { type: "integer", minimum: 0 } },
                },
              },
            }),
            "409": refusal("trial_refused, with reason and pricing_url."),
            ...common,
          },
        },
      },
      "/api/desktop/web-session-token": {
        post: {
          summary: "A single-use token that opens the site signed in: /login-via?token=&next=",
          security: bearer,
          responses: {
            "200": answer("The token.", {
              type: "object",
              required: ["token", "expires_in"],
              properties: {
                token: { type: "string" },
                expires_in: { type: "integer", const: WEB_SESSION_TTL_MS / 1000 },
              },
            }),
            ...common,
          },
        },
      },
      "/api/desktop/checkout-link": {
        post: {
          summary:
            "A single-use link that opens the browser signed in for a purchase or billing errand",
          description:
            "buy: checkout with the plan; seats: a team's seats (its owner or billing manager); update-payment-method: billing; resume: the subscription. return_uri (loopback or the app's scheme) gets \"Return to the app\" with ?done=… when the errand ends. Then wait on /api/desktop/wait.",
          security: bearer,
          requestBody: body({
            oneOf: [
              {
                type: "object",
                required: ["action", "plan"],
                properties: {
                  action: { const: "buy" },
                  plan: { enum: [...PAID_PLAN_IDS] },
                  return_uri: { type: "string" },
                },
              },
              {
                type: "object",
                required: ["action", "team_id", "seats", "cycle"],
                properties: {
                  action: { const: "seats" },
                  team_id: { type: "string" },
                  seats: { type: "integer", minimum: 1, maximum: site.teams.maxSeats },
                  cycle: { enum: ["monthly", "yearly"] },
                  return_uri: { type: "string" },
                },
              },
              {
                type: "object",
                required: ["action"],
                properties: {
                  action: { enum: ["update-payment-method", "resume"] },
                  return_uri: { type: "string" },
                },
              },
            ],
          }),
          responses: {
            "200": answer("The link; open it in the browser.", {
              type: "object",
              required: ["url", "expires_in"],
              properties: {
                url: { type: "string", format: "uri" },
                expires_in: { type: "integer", const: WEB_SESSION_TTL_MS / 1000 },
              },
            }),
            "400": { $ref: "#/components/responses/BadRequest" },
            "403": refusal("forbidden: not the team's owner or billing manager."),
            ...bodyRefusals,
            ...common,
          },
        },
      },
      "/api/desktop/wait": {
        get: {
          summary: "Wait (at most timeout seconds) for the entitlement to change",
          security: bearer,
          parameters: [
            {
              name: "since",
              in: "query",
              required: true,
              schema: { type: "string", pattern: "^[0-9a-f]{16}$" },
              description: "The entitlement_tag the app has.",
            },
            {
              name: "timeout",
              in: "query",
              required: false,
              schema: { type: "integer", minimum: 1, maximum: 30, default: 25 },
            },
          ],
          responses: {
            "200": answer("The answer of /me, and whether the entitlement changed.", {
              allOf: [ref("Me")],
              type: "object",
              required: ["changed"],
              properties: { changed: { type: "boolean" } },
            }),
            "400": { $ref: "#/components/responses/BadRequest" },
            "403": { $ref: "#/components/responses/DeviceLimit" },
            ...common,
          },
        },
      },
      "/api/desktop/openapi.json": {
        get: {
          summary: "This document",
          responses: {
            "200": answer("The OpenAPI document.", {
              type: "object",
              required: ["openapi", "paths"],
            }),
            "429": common["429"],
          },
        },
      },
    },
  };
}
