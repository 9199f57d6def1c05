import { z } from "zod";
import { type ParsedEvent, parseEvent, SERVER_RECORDED_EVENTS } from "~/lib/analytics/catalogue";
import { analyticsLocation } from "~/lib/analytics/safe-location";
import { type Database, db as defaultDb } from "../db";
import { analyticsEvents } from "../db/schema";

export const MAX_BATCH = 50;
/** How far ahead of ours a browser's clock may be before its times are not used. */
const MAX_CLOCK_AHEAD_MS = 60_000;

const batchSchema = z
  .object({
    /** Sent by older pages; ignored: the id is our signed cookie's (routes/api/events.ts). */
    clientId: z.uuid().optional(),
    events: z
      .array(
        z.object({
          name: z.string().max(64),
          params: z.unknown(),
          at: z.iso.datetime({ offset: true }).optional(),
        }),
      )
      .min(1, { error: "events: at least one event" })
      .max(MAX_BATCH, { error: `events: at most ${MAX_BATCH} per batch` }),
  })
  .strict();

/**
 * Events only the server records (feature uses from the desktop app's authenticated reports, a
 * trial's end from its job): a browser sending them would inflate the cockpit.
 */
const SERVER_ONLY_EVENTS: ReadonlySet<string> = new Set(SERVER_RECORDED_EVENTS);

export type BatchResult =
  | { ok: true; events: (ParsedEvent & { at: Date })[]; clientId: string | null }
  | { ok: false; error: string };

/** Checks a whole batch against the catalogue; one bad event rejects the batch. */
export function parseBatch(body: unknown, now = new Date()): BatchResult {
  const batch = batchSchema.safeParse(body);
  if (!batch.success) {
    const issue = batch.error.issues[0];
    return {
      ok: false,
      error: `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
    };
  }
  const events = [];
  for (const [index, raw] of batch.data.events.entries()) {
    if (SERVER_ONLY_EVENTS.has(raw.name))
      return { ok: false, error: `events[${index}]: ${raw.name} is recorded by the server only` };
    const parsed = parseEvent(raw.name, raw.params);
    if (!parsed.ok) return { ok: false, error: `events[${index}]: ${parsed.error}` };
    if (parsed.event.name === "page_view") {
      // Old or modified clients may still send full URLs: keep only what may be recorded.
      const safe = analyticsLocation(String(parsed.event.params.page_location));
      if (!safe) continue;
      parsed.event.params = {
        ...parsed.event.params,
        page_location: safe.location,
        page_path: safe.path,
      };
    }
    // A client clock far off is not trusted: the time of arrival instead. Nothing is dated
    // ahead of it (a day ahead moved tomorrow's funnel, issue 32, point 11), and a batch queued
    // in a closed tab may be up to a day old.
    const at = raw.at ? new Date(raw.at) : now;
    const ahead = at.getTime() > now.getTime() + MAX_CLOCK_AHEAD_MS;
    const old = now.getTime() - at.getTime() > 24 * 60 * 60 * 1000;
    events.push({ ...parsed.event, at: ahead || old ? now : at });
  }
  return { ok: true, events, clientId: null };
}

/** Stores a validated batch in one statement: all events or none. */
export async function storeEvents(
  result: Extract<BatchResult, { ok: true }>,
  database: Database = defaultDb(),
): Promise<number> {
  if (result.events.length === 0) return 0;
  await database.insert(analyticsEvents).values(
    result.events.map((event) => ({
      name: event.name,
      params: event.params,
      clientId: result.clientId,
      occurredAt: event.at,
    })),
  );
  return result.events.length;
}
