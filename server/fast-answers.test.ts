import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import type { FastAnswer, FastRequest } from "~/.server/http/fast-answers.server";
import { apiRateLimit } from "~/.server/security/rate-limit.server";
import { countedRateLimitsOf, createFastAnswers } from "./fast-answers";
import { routeRules } from "./route-rules";

/** A build with the shapes that matter: the root, a rate-limited layout, the feed route. */
function buildOf(routes: { id: string; parentId?: string; path?: string; module: object }[]) {
  return {
    routes: Object.fromEntries(routes.map((route) => [route.id, route])),
  } as unknown as ServerBuild;
}

const feed = { handle: { fastAnswer: "update-feed" } };
const options = { clientIp: () => "127.0.0.1" };

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

  describe("under an API rate limit's layout", () => {
    const me = { handle: { fastAnswer: "me" } };
    const limitedBuild = (layoutMiddleware: unknown[]) =>
      buildOf([
        { id: "root", path: "", module: { middleware: [() => {}] } },
        { id: "limits", parentId: "root", module: { middleware: layoutMiddleware } },
        { id: "me", parentId: "limits", path: "api/desktop/me", module: me },
      ]);
    /** Serves one GET with `answer`; what happened: fell back to the app, or wrote a status. */
    async function serveWith(answer: FastAnswer, url = "/api/desktop/me") {
      const build = limitedBuild([apiRateLimit("desktop")]);
      const errors: unknown[] = [];
      const fast = createFastAnswers(build, routeRules(build), {
        ...options,
        answers: { me: answer },
        onError: (error) => errors.push(error),
      })!;
      const req = request("GET", url);
      let written: number | undefined;
      const res = {
        headersSent: false,
        writeHead(status: number) {
          written = status;
          return this;
        },
        end() {},
      } as unknown as ServerResponse;
      const outcome = await new Promise<"app" | number>((resolve) => {
        const taken = fast.serve(req, res, () => resolve("app"));
        if (!taken) resolve("app");
        else setTimeout(() => resolve(written ?? "app"), 20);
      });
      return { outcome, req, errors };
    }

    it("starts, and gives the answer the layout's groups to count", async () => {
      const seen: FastRequest[] = [];
      const { outcome, req } = await serveWith(async (request) => {
        seen.push(request);
        request.counted("desktop");
        return { status: 200, headers: {} };
      });
      expect(outcome).toBe(200);
      expect(seen[0]?.rateLimits).toEqual(["desktop"]);
      expect(countedRateLimitsOf(req)).toEqual(new Set(["desktop"]));
      // A path of fixed segments only is its own prefix, matched whatever its case.
      const declining: FastAnswer = async (request) => {
        seen.push(request);
        return null;
      };
      for (const url of ["/API/desktop/ME", "/api/desktop/me?x=1"])
        expect((await serveWith(declining, url)).outcome).toBe("app");
      expect(seen).toHaveLength(3);
      expect((await serveWith(declining, "/api/desktop/meter")).outcome).toBe("app");
      expect(seen).toHaveLength(3);
    });

    it("hands the app a request counted and then declined, marked as counted", async () => {
      const { outcome, req } = await serveWith(async (request) => {
        request.counted("desktop");
        return null;
      });
      expect(outcome).toBe("app");
      expect(countedRateLimitsOf(req)).toEqual(new Set(["desktop"]));
    });

    it("never writes an answer that did not count the request: the app answers it", async () => {
      const { outcome, req, errors } = await serveWith(async () => ({ status: 200, headers: {} }));
      expect(outcome).toBe("app");
      expect(countedRateLimitsOf(req)).toBeUndefined();
      expect(String(errors[0])).toMatch(/did not count desktop/);
    });

    it("still refuses to start beside any other layout middleware", () => {
      const build = limitedBuild([apiRateLimit("desktop"), () => {}]);
      expect(() =>
        createFastAnswers(build, routeRules(build), {
          ...options,
          answers: { me: async () => null },
        }),
      ).toThrow(/limits has middleware it would skip/);
    });
  });
});
