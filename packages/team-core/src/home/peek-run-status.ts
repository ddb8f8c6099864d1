import type { RunStatus } from '../schema/runtime-state.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

/**
 * Whether run `runId`'s state document says, at a glance, that the run is finished
 * (`completed`, `deleted`, `failed`, `orphaned`): its `status` alone, read without checking
 * the rest of the document against its schema. False when the document is missing,
 * unreadable or says anything else, so a caller that needs the truth reads the run state
 * (`readRunState`, `listRuns`), which checks all of it. For listings of working runs that
 * would skip finished runs anyway and need not load the schemas for them.
 */
export async function looksFinished(store: TeamkitStore, runId: string): Promise<boolean> {
  // Loaded on first use: the `home` entry stays cheap for a home without runs.
  const [{ FINISHED_RUN_STATUSES }, { runKeys }] = await Promise.all([
    import('../state/status-machines.js'),
    import('../storage/run-keys.js'),
  ]);
  let text: string | undefined;
  try {
    text = (await store.read(runKeys(runId).state))?.text;
  } catch {
    // Unreadable: not "finished at a glance"; the full read reports why.
    return false;
  }
  if (text === undefined) return false;
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof document !== 'object' || document === null) return false;
  const { version, status } = document as { version?: unknown; status?: unknown };
  return version === 1 && FINISHED_RUN_STATUSES.includes(status as RunStatus);
}
