import { isRunId } from '../schema/run-id-pattern.js';
import { isAbsentFolderCollection } from '../storage/absent-folder-collection.js';
import { selectedStoreForHome } from '../storage/selected-store.js';
import type { TeamkitStore } from '../storage/teamkit-store.js';

/** The collection that holds one folder (or key prefix) per run. */
export const RUNTIME_PREFIX = 'runtime';

/**
 * The ids of the runs on record: the names under `runtime/` of the home's store (the store
 * chosen for the home in this process, else its folder), or of `store`, that are run ids.
 * Other names are ignored. Reads no run state, so it loads no schema; a home's folder
 * without a `runtime/` folder answers without loading the file store at all.
 */
export async function listRunIds(from: string | TeamkitStore): Promise<string[]> {
  let store = typeof from === 'string' ? selectedStoreForHome(from) : from;
  if (store === undefined) {
    const home = from as string;
    if (isAbsentFolderCollection(home, RUNTIME_PREFIX)) return [];
    const { storeForHome } = await import('../storage/home-store.js');
    store = storeForHome(home);
  }
  return (await store.list(RUNTIME_PREFIX)).filter(isRunId);
}
