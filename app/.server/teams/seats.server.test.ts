/** The team's seat lease: one seat change at a time; a second that cannot wait gets words. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "../../../tests/support/test-database";
import { AppError } from "../http/errors";
import { withSeatLease } from "./seats.server";

describe("the seat lease", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test.close());

  it("answers a change that finds the team's seats busy with a 409 in words, not a 500", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered = () => {};
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const first = withSeatLease(
      "org_busy",
      async () => {
        entered();
        await held;
        return "first";
      },
      test.db,
    );
    await inside;
    const second = withSeatLease("org_busy", async () => "second", test.db, 300).catch(
      (error: unknown) => error,
    );
    const refused = await second;
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toBe(
      "Someone else is changing the team's seats right now. Try again in a moment.",
    );
    release();
    expect(await first).toBe("first");
    // Another team's seats are not held up by it.
    expect(await withSeatLease("org_other", async () => "free", test.db, 300)).toBe("free");
  });
});
