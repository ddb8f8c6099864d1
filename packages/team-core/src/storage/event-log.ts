import { TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import { type RunEvent, RunEventSchema } from '../schema/run-event.js';
import type { LogCursor, StoreKey, TeamkitStore } from './teamkit-store.js';

/** What a caller records; version and time are filled in. */
export type RunEventInput = Omit<RunEvent, 'version' | 'at'> & { at?: number };

/**
 * Appends one event line to a run's `events.jsonl`. Each line is one append write,
 * so concurrent writers do not interleave within a line. An invalid event is refused
 * with `INVALID_INPUT` and nothing is appended.
 */
export async function appendRunEvent(
  store: TeamkitStore,
  eventsKey: StoreKey,
  event: RunEventInput,
  now: () => number = Date.now,
): Promise<void> {
  const parsed = RunEventSchema.safeParse({ ...event, version: 1, at: event.at ?? now() });
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new TeamkitError(
      'INVALID_INPUT',
      `Refused to log a run event in ${eventsKey}: ${issues.join('; ')}.`,
      { details: { path: eventsKey, issues } },
    );
  }
  await store.append(eventsKey, JSON.stringify(parsed.data));
}

/** Events read after a cursor, and the cursor to read the next ones from. */
export interface RunEventsRead {
  events: RunEvent[];
  /** Torn or invalid lines passed over. */
  skipped: number;
  /** Where the next read starts (opaque). */
  cursor: LogCursor | undefined;
}

/**
 * Reads a run's events after `cursor` (from the start without one), to the end of the
 * log. Lines torn by a crash, and lines that fail the schema, are skipped and counted.
 */
export async function readRunEventsAfter(
  store: TeamkitStore,
  eventsKey: StoreKey,
  cursor?: LogCursor,
): Promise<RunEventsRead> {
  const events: RunEvent[] = [];
  let skipped = 0;
  let next = cursor;
  for (;;) {
    const read = await store.readLog(eventsKey, next);
    skipped += read.skipped;
    next = read.cursor;
    for (const line of read.lines) {
      if (line.trim() === '') continue;
      try {
        const parsed = RunEventSchema.safeParse(JSON.parse(line));
        if (parsed.success) events.push(parsed.data);
        else skipped += 1;
      } catch {
        skipped += 1;
      }
    }
    if (read.atEnd) break;
  }
  return { events, skipped, cursor: next };
}

/** Reads every event of a run; see {@link readRunEventsAfter}. */
export async function readRunEvents(
  store: TeamkitStore,
  eventsKey: StoreKey,
): Promise<{ events: RunEvent[]; skipped: number }> {
  const { events, skipped } = await readRunEventsAfter(store, eventsKey);
  return { events, skipped };
}
