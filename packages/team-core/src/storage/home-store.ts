import path from 'node:path';
import type { LockOptions } from './file-lock.js';
import { createFileStore, type FileStore } from './file-store/create-file-store.js';
import type { TeamkitStore } from './teamkit-store.js';

// One file store per home and process: the store checks each folder once and remembers
// it, so commands that open a run many times do not pay for the checks again.
const shared = new Map<string, FileStore>();
// A networked store chosen for a home (`TEAMKIT_STORE`): every caller of storeForHome in
// this process shares the run state through it instead of the home's folder.
const selected = new Map<string, TeamkitStore>();

/**
 * The file store of a Teamkit home, always: for what stays on this machine whichever store
 * holds the runs (the supervisor's record, member process records).
 */
export function localStoreForHome(home: string, lock?: LockOptions): FileStore {
  if (lock !== undefined && Object.keys(lock).length > 0) {
    return createFileStore({ root: home, lock });
  }
  const root = path.resolve(home);
  let store = shared.get(root);
  if (store === undefined) {
    store = createFileStore({ root });
    shared.set(root, store);
  }
  return store;
}

/**
 * The store that holds the runs of a Teamkit home in this process: the store chosen with
 * {@link useStoreForHome} (the NATS store, when `TEAMKIT_STORE` names a server), else the
 * file store rooted at `home`. Without lock tuning the file store is shared by every caller
 * in this process; a chosen store keeps the lock tuning it was opened with.
 */
export function storeForHome(home: string, lock?: LockOptions): TeamkitStore {
  return selected.get(path.resolve(home)) ?? localStoreForHome(home, lock);
}

/**
 * Makes `store` hold the runs of `home` for every {@link storeForHome} in this process
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
