import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { createFastAnswers } from "./fast-answers";
import { routeRules } from "./route-rules";

/** A build with the shapes that matter: the root, a rate-limited layout, the feed route. */
function buildOf(routes: { id: string; parentId?: string; path?: string; module: object }[]) {
  return {
    routes: Object.fromEntries(routes.map((route) => [route.id, route])),
  } as unknown as ServerBuild;
}

const feed = { handle: { fastAnswer: "update-feed" } };
const options = {
  baseHeaders: [],
  requestId: () => "id",
  clientIp: () => "127.0.0.1",
  closing: () => false,
};

function request(method: string, url: string, headers: Record<string, string> = {}) {
  return { method, url, headers } as unknown as IncomingMessage;
}

describe("fast answers (decision 0032)", () => {
  it("refuses to start when a route's layout has middleware the fast path would skip", () => {
    const build = buildOf([
      { id: "root", path: "", module: { middleware: [() => {}] } },
      { id: "limits", parentId: "root", module: { middleware: [() => {}] } },
      { id: "feed", parentId: "limits", path: "updates/:channel/:feed", module: feed },
    ]);
    expect(() => createFastAnswers(build, routeRules(build), options)).toThrow(/limits/);
  });

  it("takes only GET and HEAD to the route React Router matches, without a body", () => {
    const build = buildOf([
      { id: "root", path: "", module: { middleware: [() => {}] } },
      { id: "feed", parentId: "root", path: "updates/:channel/:feed", module: feed },
      { id: "download", parentId: "root", path: "download/:platform", module: {} },
      { id: "notFound", parentId: "root", path: "*", module: {} },
    ]);
    const fast = createFastAnswers(build, routeRules(build), options);
    expect(fast).toBeDefined();
    const res = {} as ServerResponse;
    // Declined before anything runs: the answer (which would need a database) is never called.
    const declined = (req: IncomingMessage) => fast!.serve(req, res, () => {});
    expect(declined(request("POST", "/updates/stable/latest.yml"))).toBe(false);
    expect(declined(request("GET", "/download/mac"))).toBe(false);
    expect(declined(request("GET", "/updates/stable"))).toBe(false);
    expect(declined(request("GET", "/updates/stable/latest.yml.data"))).toBe(false);
    expect(declined(request("GET", "/updates/stable/latest yml"))).toBe(false);
    expect(declined(request("GET", "/updates/stable/latest.yml", { "content-length": "2" }))).toBe(
      false,
    );
    expect(
      declined(request("GET", "/updates/stable/latest.yml", { "transfer-encoding": "chunked" })),
    ).toBe(false);
  });

  it("is not used when no route names a fast answer", () => {
    const build = buildOf([{ id: "root", path: "", module: {} }]);
    expect(createFastAnswers(build, routeRules(build), options)).toBeUndefined();
  });
});
