/**
 * The account guard's one read (decision 0035) serves the loaders of a read only: after a form
 * post's action, the loaders must see what the action changed, so they read the state again.
 */
import { RouterContextProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";

const session = {
  id: "s1",
  user: { id: "u1", email: "a@example.com", name: "A", role: "user" as const, emailVerified: true },
};
const run = vi.fn(async (_database: unknown, _values: unknown[]) => [
  { ...stateRow(), id: "s1", expiresMs: 0, userId: "u1", email: "", name: "", emailVerified: true },
]);
const reads: string[] = [];

function stateRow() {
  return {
    signed_up_ms: 0,
    active_devices: 1,
    handoff_ms: null,
    signed_in_ms: null,
    seen_ms: null,
    usage_ms: null,
    subscriptions: [],
    grants: [],
  };
}

vi.mock("../db/prepared", () => ({
  prepared: (name: string) => ({
    run: (database: unknown, values: unknown[]) => {
      reads.push(name);
      return run(database, values);
    },
  }),
}));
vi.mock("../db", () => ({ db: () => ({}) }));
vi.mock("../auth/session", () => ({
  SESSION_COLUMNS: "",
  getSession: vi.fn(async () => {
    reads.push("getSession");
    return session;
  }),
  requireSession: () => session,
  sessionReadFromCookie: vi.fn(
    async (_headers: Headers, statement: { run(d: unknown, v: unknown[]): Promise<unknown[]> }) => {
      const [row] = await statement.run({}, []);
      return { session, row };
    },
  ),
}));

const { accountState, readSessionAndAccountState } = await import("./account-state.server");

describe("the account guard's read", () => {
  beforeEach(() => {
    reads.length = 0;
  });

  it("answers the loaders of a read from the guard's one statement", async () => {
    const context = new RouterContextProvider();
    const request = new Request("http://localhost/account");
    expect(await readSessionAndAccountState(request, context)).toEqual(session);
    await Promise.all([accountState(context), accountState(context)]);
    expect(reads).toEqual(["session_account_state"]);
  });

  it("leaves a form post's loaders to read the state after its action, once", async () => {
    const context = new RouterContextProvider();
    const request = new Request("http://localhost/account/subscription", { method: "POST" });
    expect(await readSessionAndAccountState(request, context)).toEqual(session);
    expect(reads).toEqual(["getSession"]);
    await Promise.all([accountState(context), accountState(context)]);
    expect(reads).toEqual(["getSession", "account_state"]);
  });
});
