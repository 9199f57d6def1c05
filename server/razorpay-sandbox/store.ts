/**
 * Holds the sandbox state, runs changes as all-or-nothing transactions, persists to a JSON file
 * (tmp file + rename, after each change) and hands raised events to the webhook queue.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { emptyState, type EventEnvelope, type SandboxState } from "./entities";
import type { Tx } from "./state";

const stateFileSchema = z.looseObject({
  version: z.literal(1),
  plans: z.record(z.string(), z.looseObject({ id: z.string() })),
  subscriptions: z.record(z.string(), z.looseObject({ entity: z.looseObject({ id: z.string() }) })),
  payments: z.record(z.string(), z.looseObject({ entity: z.looseObject({ id: z.string() }) })),
  refunds: z.record(z.string(), z.looseObject({ id: z.string() })),
  invoices: z.record(z.string(), z.looseObject({ id: z.string() })),
});

export interface StoreOptions {
  statePath?: string | undefined;
  /** The account's international payments setting (see `SandboxOptions`). */
  international: boolean;
  now: () => number;
  publicUrl: () => string;
  onEvent: (event: EventEnvelope) => void;
  log: (message: string, details?: Record<string, unknown>) => void;
}

export class Store {
  private state: SandboxState;

  constructor(private readonly options: StoreOptions) {
    this.state = options.statePath ? load(options.statePath, options.log) : emptyState();
  }

  /** Read-only access (callers must not mutate). */
  read<T>(fn: (state: SandboxState, now: number) => T): T {
    return fn(this.state, this.now());
  }

  /** The sandbox's time: the real clock, moved on by the test clock's offset. */
  private now(): number {
    return this.options.now() + (this.state.clockOffsetSeconds ?? 0);
  }

  /** Runs `fn` on a copy; keeps the copy, saves it and sends its events only if `fn` returns. */
  change<T>(fn: (tx: Tx) => T): T {
    const tx: Tx = {
      state: structuredClone(this.state),
      international: this.options.international,
      now: this.now(),
      publicUrl: this.options.publicUrl().replace(/\/+$/, ""),
      events: [],
    };
    const result = fn(tx);
    this.state = tx.state;
    if (this.options.statePath) save(this.options.statePath, this.state);
    for (const event of tx.events) this.options.onEvent(event);
    return result;
  }
}

function load(
  file: string,
  log: (message: string, details?: Record<string, unknown>) => void,
): SandboxState {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyState();
    throw error;
  }
  try {
    const parsed = stateFileSchema.parse(JSON.parse(text));
    // Written by save() below from a SandboxState; the schema checks its outline only.
    return parsed as unknown as SandboxState;
  } catch (error) {
    const aside = `${file}.corrupt-${Date.now()}`;
    fs.renameSync(file, aside);
    log("sandbox state file unreadable: moved aside, starting empty", {
      file,
      aside,
      error: String(error),
    });
    return emptyState();
  }
}

function save(file: string, state: SandboxState): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(state));
  fs.renameSync(tmp, file);
}
