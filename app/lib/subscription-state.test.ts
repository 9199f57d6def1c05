/**
 * The state module's own guarantees (issue 54, point 1): its tables agree with `stateOf`, a
 * table missing a column or a state does not compile, and a status compared with a literal
 * outside it fails lint.
 */
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  allows,
  STATE_RULES,
  stateOf,
  STATUS_RULES,
  SUBSCRIPTION_STATES,
  SUBSCRIPTION_STATUSES,
  type StateFacts,
} from "./subscription-state";

const root = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(root, "tests/fixtures/subscription-state");

/** Every combination of the facts `stateOf` reads. */
function* allFacts(): Generator<StateFacts> {
  const flags = [false, true];
  for (const status of SUBSCRIPTION_STATUSES)
    for (const cancelAtCycleEnd of flags)
      for (const checkoutVerified of flags)
        for (const replacesAnother of flags)
          for (const switchFollows of flags)
            for (const pausedInUpiApp of flags)
              for (const endedWithoutPro of flags)
                yield {
                  status,
                  cancelAtCycleEnd,
                  checkoutVerified,
                  replacesAnother,
                  switchFollows,
                  pausedInUpiApp,
                  endedWithoutPro,
                };
}

describe("the state tables", () => {
  it("reach every state, each only from the statuses its row names", () => {
    const reached = new Set<string>();
    for (const facts of allFacts()) {
      const state = stateOf(facts);
      reached.add(state);
      expect(STATE_RULES[state].from, `${JSON.stringify(facts)} → ${state}`).toContain(
        facts.status,
      );
    }
    expect([...reached].sort()).toEqual([...SUBSCRIPTION_STATES].sort());
  });

  it("grant as the status grants, bar the ends that gave no Pro", () => {
    for (const facts of allFacts()) {
      const state = stateOf(facts);
      if (state === "ended-without-pro") continue;
      expect(STATE_RULES[state].grants, state).toBe(STATUS_RULES[facts.status].grants);
    }
  });

  it("offer cancelling exactly where the cancel box has words, and nothing after the end", () => {
    for (const state of SUBSCRIPTION_STATES) {
      expect(allows(state, "cancel"), state).toBe(STATE_RULES[state].cancel !== null);
      if (STATE_RULES[state].grants === "nothing" && state !== "halted")
        expect(STATE_RULES[state].commands, state).toEqual([]);
    }
    // Nothing paid yet: cancelling an authorisation takes effect now, and never promises paid time.
    expect(STATE_RULES.authorised.cancel?.at).toBe("now");
    expect(STATE_RULES.authorised.cancel?.words).not.toMatch(/period you paid for/);
  });
});

describe("a table without every column", () => {
  it("does not compile: a status, a state, or a state left out", () => {
    const file = path.join(fixtures, "missing-column.ts");
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2023,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file?.fileName === file)
      .map((diagnostic) => diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start!).line);
    const expected = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, index) => (line.includes("// expect-error") ? [index] : []));
    expect(expected).toHaveLength(3);
    // Each marked line (or the object it closes) has an error, and nothing else does.
    for (const line of expected)
      expect(
        errors.some((at) => at <= line && at >= line - 2),
        `line ${line + 1}`,
      ).toBe(true);
    expect(errors.every((at) => expected.some((line) => at <= line && at >= line - 2))).toBe(true);
  }, 60_000);
});

describe("the lint rule against status literals", () => {
  it("flags every form outside the state module, and only those", async () => {
    const file = path.join(fixtures, "status-literals.ts");
    const text = fs.readFileSync(file, "utf8");
    const eslint = new ESLint({ cwd: root });
    // Linted as if it were the site's code (the fixture's own folder is ignored by the config).
    const [result] = await eslint.lintText(text, {
      filePath: path.join(root, "app/.server/billing/status-literals-fixture.ts"),
    });
    const flagged = new Set(
      result!.messages
        .filter((message) => message.message.includes("app/lib/subscription-state.ts"))
        .map((message) => message.line),
    );
    const lines = text.split("\n");
    const marked = (mark: string) =>
      lines.flatMap((line, index) => (line.includes(`// ${mark}`) ? [index + 1] : []));
    expect(marked("flagged").length).toBeGreaterThanOrEqual(9);
    expect(marked("allowed").length).toBeGreaterThanOrEqual(5);
    for (const line of marked("flagged")) expect(flagged.has(line), lines[line - 1]).toBe(true);
    for (const line of marked("allowed")) expect(flagged.has(line), lines[line - 1]).toBe(false);
  }, 60_000);
});
