import { isRunId } from '../schema/run-id-pattern.js';
import { storeForHome } from '../storage/home-store.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

/** The collection that holds one folder (or key prefix) per run. */
export const RUNTIME_PREFIX = 'runtime';

/**
 * The ids of the runs on record: the names under `runtime/` of the home's store (the store
 * chosen for the home in this process, else its folder), or of `store`, that are run ids.
 * Other names are ignored. Reads no run state, so it loads no schema.
 */
export async function listRunIds(from: string | TeamkitStore): Promise<string[]> {
  const store = typeof from === 'string' ? storeForHome(from) : from;
  return (await store.list(RUNTIME_PREFIX)).filter(isRunId);
}
