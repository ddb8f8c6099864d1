import { TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import { type RunEvent, RunEventSchema } from '../schema/run-event.js';
import type { PathStore } from './path-store.js';

/** What a caller records; version and time are filled in. */
export type RunEventInput = Omit<RunEvent, 'version' | 'at'> & { at?: number };

/**
 * Appends one event line to a run's `events.jsonl`. Each line is one append write,
 * so concurrent writers do not interleave within a line. An invalid event is refused
 * with `INVALID_INPUT` and nothing is appended.
 */
export async function appendRunEvent(
  store: PathStore,
  eventsFile: string,
  event: RunEventInput,
  now: () => number = Date.now,
): Promise<void> {
  const parsed = RunEventSchema.safeParse({ ...event, version: 1, at: event.at ?? now() });
  if (!parsed.success) {
    const issues = describeIssues(parsed.error);
    throw new TeamkitError(
      'INVALID_INPUT',
      `Refused to log a run event in ${eventsFile}: ${issues.join('; ')}.`,
      { details: { path: eventsFile, issues } },
    );
  }
  await store.appendLine(eventsFile, JSON.stringify(parsed.data));
}

/**
 * Reads a run's events, skipping a torn last line (a crash mid-append) and any line
 * that fails the schema; `skipped` counts them.
 */
export async function readRunEvents(
  store: PathStore,
  eventsFile: string,
): Promise<{ events: RunEvent[]; skipped: number }> {
  const text = (await store.readText(eventsFile)) ?? '';
  const events: RunEvent[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = RunEventSchema.safeParse(JSON.parse(line));
      if (parsed.success) events.push(parsed.data);
      else skipped += 1;
    } catch {
      skipped += 1;
    }
  }
  return { events, skipped };
}
