import { isTeamkitError } from '../errors/index.js';
import { type RunMerge, type RunMerges, RunMergesSchema } from '../schema/run-merges.js';
import {
  createDocument,
  readDocument,
  runKeys,
  type TeamkitStore,
  updateDocument,
} from '../storage/index.js';

/** Every merge of a run's work recorded so far, oldest first (none before the first). */
export async function readRunMerges(store: TeamkitStore, runId: string): Promise<RunMerge[]> {
  const stored = await readDocument(store, runKeys(runId).merges, RunMergesSchema);
  return stored?.value.merges ?? [];
}

/** Adds one merge to the run's record (`runtime/<runId>/merges.json`) on the keyed store. */
export async function recordRunMerge(
  store: TeamkitStore,
  runId: string,
  merge: RunMerge,
): Promise<void> {
  const key = runKeys(runId).merges;
  const first: RunMerges = { version: 1, runId, merges: [merge] };
  try {
    await createDocument(store, key, RunMergesSchema, first);
    return;
  } catch (error) {
    if (!isTeamkitError(error, 'ALREADY_EXISTS')) throw error;
  }
  await updateDocument(store, key, RunMergesSchema, (current) => ({
    ...current,
    merges: [...current.merges, merge].slice(-1_000),
  }));
}
