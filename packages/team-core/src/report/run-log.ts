import type { RunEvent } from '../schema/run-event.js';
import { appendRunEvent, readRunEvents } from '../storage/event-log.js';
import { runKeys } from '../storage/run-keys.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

/**
 * Appends one event to a run's log through the keyed store, validated first
 * (`INVALID_INPUT`, nothing appended, for an event that fails the schema); the run's
 * `appendRunEvent` with the key found from `runId`.
 */
export async function appendRunLog(
  store: TeamkitStore,
  runId: string,
  event: Omit<RunEvent, 'version' | 'runId'>,
): Promise<void> {
  await appendRunEvent(store, runKeys(runId).events, { runId, ...event });
}

/**
 * Every event of a run's log (`events.jsonl`) read through the keyed store, with torn or
 * invalid lines skipped and counted (`readRunEvents`, the one reader). A run without a
 * log has no events.
 */
export function readRunLog(
  store: TeamkitStore,
  runId: string,
): Promise<{ events: RunEvent[]; skipped: number }> {
  return readRunEvents(store, runKeys(runId).events);
}
