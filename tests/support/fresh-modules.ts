/**
 * Runs before each test file (vitest.config.ts `setupFiles`). Workers are not isolated: one
 * process runs file after file, so the packages in node_modules load once per worker. What a
 * file may change is put back first: the environment variables and globals the previous file
 * stubbed, and the module registry, so the app's own modules (their caches, the parsed `env()`,
 * the mail outbox, the release snapshot) start afresh in each file as they would in a new process.
 */
import { afterAll, vi } from "vitest";
import { killChildProcesses } from "./child-processes";

vi.unstubAllEnvs();
vi.unstubAllGlobals();
vi.resetModules();
// The DOM of a browser-like environment outlives its file too: anything a file left in the page
// (rendered by hand, outside Testing Library's cleanup) is gone before the next file looks. A
// "Saved." left by forms.test.tsx once gave subscription.test.tsx two statuses and four failures.
if (typeof document !== "undefined") document.body.replaceChildren();

// After the file's own teardown (after-hooks run last registered first): a server process it
// left running, because a test failed or timed out before stopping it, ends with its file.
afterAll(() => killChildProcesses());
