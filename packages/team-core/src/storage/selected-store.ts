import path from 'node:path';
import type { TeamkitStore } from './teamkit-store.js';

// A networked store chosen for a home (`TEAMKIT_STORE`): every caller of storeForHome in
// this process shares the run state through it instead of the home's folder. Kept apart
// from the file store, so asking "which store?" loads none of the file store's modules.
const selected = new Map<string, TeamkitStore>();

/** The store chosen for `home` in this process with {@link useStoreForHome}, if any. */
export function selectedStoreForHome(home: string): TeamkitStore | undefined {
  return selected.get(path.resolve(home));
}

/**
 * Makes `store` hold the runs of `home` for every `storeForHome` in this process
 * (`undefined` goes back to the file store). The one place a process picks its store.
 */
export function useStoreForHome(home: string, store: TeamkitStore | undefined): void {
  const root = path.resolve(home);
  if (store === undefined) selected.delete(root);
  else selected.set(root, store);
}

/** Whether the runs of `home` live in a networked store in this process (not its folder). */
export function isSharedStoreForHome(home: string): boolean {
  return selected.has(path.resolve(home));
}
