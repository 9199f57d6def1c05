import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./outage";

describe("isDatabaseUnavailable", () => {
  it.each([
    Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    Object.assign(new Error("terminating connection"), { code: "57P01" }),
    Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
    Object.assign(new Error("connection failure"), { code: "08006" }),
    new Error("Connection terminated unexpectedly"),
    new Error("timeout exceeded when trying to connect"),
    new Error("Failed query: select 1", {
      cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }),
    }),
  ])("recognises %s", (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    Object.assign(new Error('relation "x" does not exist'), { code: "42P01" }),
    Object.assign(new Error("duplicate key"), { code: "23505" }),
    new Error("something else"),
    null,
    "ECONNREFUSED",
  ])("does not mistake %s for an outage", (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
