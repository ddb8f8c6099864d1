import { isRunId } from '../schema/run-id-pattern.js';
import { isAbsentFolderCollection } from '../storage/absent-folder-collection.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

/** The collection that holds one folder (or key prefix) per run. */
export const RUNTIME_PREFIX = 'runtime';

/**
 * The ids of the runs on record in `store`: the names under `runtime/` that are run ids.
 * Other names are ignored. Reads no run state, so it loads no schema.
 */
export async function listRunIds(store: TeamkitStore): Promise<string[]> {
  return (await store.list(RUNTIME_PREFIX)).filter(isRunId);
}

/**
 * Whether the folder of Teamkit home `home` has no `runtime/` folder at all, so that its
 * file store holds no runs: answered without loading the file store. Only for a caller
 * that keeps its runs in the home's folder (the file store); any other store is asked
 * with {@link listRunIds}.
 */
export function homeFolderHoldsNoRuns(home: string): boolean {
  return isAbsentFolderCollection(home, RUNTIME_PREFIX);
}
