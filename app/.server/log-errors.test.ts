import { describe, expect, it } from "vitest";
import { errorForLog } from "./log-errors";

describe("errorForLog", () => {
  it("keeps the name, message, code and every cause", () => {
    const disk = Object.assign(new Error("No space left on device"), { code: "ENOSPC" });
    const query = new Error("Failed query: insert into jobs", { cause: disk });
    expect(errorForLog(new Error("Failed to run background task", { cause: query }))).toEqual({
      name: "Error",
      message: "Failed to run background task",
      cause: {
        name: "Error",
        message: "Failed query: insert into jobs",
        cause: { name: "Error", message: "No space left on device", code: "ENOSPC" },
      },
    });
  });

  it("notes a value that is not an error by its type only (a URL may carry a token)", () => {
    expect(errorForLog("https://pinout.dev/reset?token=secret")).toEqual({
      name: "string",
      message: "(a string)",
    });
    expect(JSON.stringify(errorForLog({ token: "secret" }))).not.toContain("secret");
  });

  it("stops at five causes (a cycle ends)", () => {
    const error = new Error("loop");
    (error as { cause?: unknown }).cause = error;
    expect(JSON.stringify(errorForLog(error)).match(/loop/g)).toHaveLength(6);
  });
});
