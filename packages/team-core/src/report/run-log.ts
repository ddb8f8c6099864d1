import { type RunEvent, RunEventSchema } from '../schema/run-event.js';
import { runKeys, serializeDocument, type TeamkitStore } from '../storage/index.js';

/**
 * Appends one event to a run's log through the keyed store, validated first
 * (`INVALID_INPUT`, nothing appended, for an event that fails the schema).
 */
export async function appendRunLog(
  store: TeamkitStore,
  runId: string,
  event: Omit<RunEvent, 'version' | 'runId'>,
): Promise<void> {
  const line = serializeDocument({ version: 1, runId, ...event }, RunEventSchema, 'a run event');
  await store.append(runKeys(runId).events, JSON.stringify(JSON.parse(line)));
}

/**
 * Every event of a run's log (`events.jsonl`) read through the keyed store, with torn or
 * invalid lines skipped and counted. A run without a log has no events.
 */
export async function readRunLog(
  store: TeamkitStore,
  runId: string,
): Promise<{ events: RunEvent[]; skipped: number }> {
  const key = runKeys(runId).events;
  const events: RunEvent[] = [];
  let skipped = 0;
  let cursor: string | undefined;
  for (;;) {
    const read = await store.readLog(key, cursor);
    skipped += read.skipped;
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
    if (read.atEnd) return { events, skipped };
    cursor = read.cursor;
  }
}
