/**
 * The desktop API's answers checked against its OpenAPI document (issue 57, point 6): the status
 * must be documented for the operation, and the JSON body must match the schema the document
 * gives for it (JSON Schema 2020-12, as OpenAPI 3.1 uses). Tests call it on the answers they get.
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { desktopOpenApi } from "~/.server/desktop/openapi";

const document = desktopOpenApi();
type Operation = {
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
};

// Strict mode off: the document's own keys (openapi, paths, …) are not JSON Schema keywords.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ ...document, $id: "desktop-api" });

const pointer = (...parts: string[]) =>
  parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/**
 * Checks `response` (from `method` on an /api/desktop path) against the document; the parsed
 * body, for the test's own assertions.
 */
export async function expectConforms(method: string, response: Response): Promise<unknown> {
  const path = new URL(response.url).pathname;
  const operations = (document.paths as Record<string, Record<string, Operation>>)[path];
  const operation = operations?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is in the OpenAPI document`).toBeDefined();
  const status = String(response.status);
  const declared = operation!.responses[status];
  expect(declared, `${method} ${path} documents ${status}`).toBeDefined();
  // A shared answer (#/components/responses/…) or the operation's own.
  const base = declared!.$ref
    ? `desktop-api#/${declared!.$ref.slice(2)}`
    : `desktop-api#/${pointer("paths", path, method.toLowerCase(), "responses", status)}`;
  expect(response.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  const body: unknown = await response.clone().json();
  const validate = ajv.getSchema(`${base}/content/application~1json/schema`);
  expect(validate, `a schema for ${method} ${path} ${status}`).toBeDefined();
  const valid = validate!(body);
  expect(
    valid,
    `${method} ${path} ${status} matches the document: ${ajv.errorsText(validate!.errors)}\n${JSON.stringify(body)}`,
  ).toBe(true);
  return body;
}
