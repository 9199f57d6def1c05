import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * A subscription's status compared with a string literal (issue 54): what a status means is
 * defined once, in app/lib/subscription-state.ts, and asked of its tables everywhere else. The
 * nine are Razorpay's statuses; `x.status` compared with one, tested against a list of them, or
 * put in a SQL filter (`eq`, `ne`, `inArray`) fails, and so does `case "…":` in a switch on a
 * status. Exported for the rule's own test (tests/integration/subscription-state-rules.test.ts).
 */
const STATUS_LITERAL =
  "/^(created|authenticated|active|pending|halted|cancelled|completed|expired|paused)$/";
const STATUS_MESSAGE =
  "Ask app/lib/subscription-state.ts (STATUS_RULES, STATE_RULES, stateOf, allows, statusesWhere) instead of comparing a subscription's status with a literal.";
const isStatus = "[property.name='status']";
export const subscriptionStatusSelectors = [
  `BinaryExpression[operator=/^[!=]==?$/]:matches([left.type='MemberExpression']${isStatus.replace("[", "[left.")}, [left.type='ChainExpression'][left.expression.property.name='status'])[right.type='Literal'][right.value=${STATUS_LITERAL}]`,
  `BinaryExpression[operator=/^[!=]==?$/][right.type='MemberExpression'][right.property.name='status'][left.type='Literal'][left.value=${STATUS_LITERAL}]`,
  `CallExpression[callee.property.name='includes'][callee.object.type='ArrayExpression'][arguments.0.property.name='status']:has(ArrayExpression > Literal[value=${STATUS_LITERAL}])`,
  `CallExpression[callee.name=/^(eq|ne)$/][arguments.0.property.name='status'][arguments.1.value=${STATUS_LITERAL}]`,
  `CallExpression[callee.name=/^(inArray|notInArray)$/][arguments.0.property.name='status'] > ArrayExpression > Literal[value=${STATUS_LITERAL}]`,
  `SwitchStatement:matches([discriminant.property.name='status'], [discriminant.expression.property.name='status']) > SwitchCase > Literal.test[value=${STATUS_LITERAL}]`,
].map((selector) => ({ selector, message: STATUS_MESSAGE }));

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      // Code that must fail the type check or lint, checked by its own test.
      "tests/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // The site's own code; the state module itself, the fake Razorpay (which plays Razorpay's
    // side, statuses and all) and tests (which set statuses up) are outside it.
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "scripts/**/*.ts"],
    ignores: [
      "app/lib/subscription-state.ts",
      "server/razorpay-sandbox/**",
      "**/*.test.ts",
      "**/*.test.tsx",
    ],
    rules: { "no-restricted-syntax": ["error", ...subscriptionStatusSelectors] },
  },
  {
    files: ["scripts/**", "tests/**", "server.js", "*.config.ts"],
    rules: { "no-console": "off" },
  },
  {
    // The site runs inside the test worker (decision 0036): a synchronous wait there stops the
    // site too, so a test that waits that way for the site to do something never sees it done.
    files: ["tests/**", "**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "Atomics",
          property: "wait",
          message: "Wait with a promise: the site may run in this process (decision 0036).",
        },
      ],
    },
  },
);
