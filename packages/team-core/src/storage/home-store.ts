import path from 'node:path';
import type { LockOptions } from './file-lock.js';
import { createFileStore, type FileStore } from './file-store/create-file-store.js';
import { selectedStoreForHome } from './selected-store.js';
import type { TeamkitStore } from './teamkit-store.js';

// One file store per home and process: the store checks each folder once and remembers
// it, so commands that open a run many times do not pay for the checks again.
const shared = new Map<string, FileStore>();

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
 * `useStoreForHome` (the NATS store, when `TEAMKIT_STORE` names a server), else the
 * file store rooted at `home`. Without lock tuning the file store is shared by every caller
 * in this process; a chosen store keeps the lock tuning it was opened with.
 */
export function storeForHome(home: string, lock?: LockOptions): TeamkitStore {
  return selectedStoreForHome(home) ?? localStoreForHome(home, lock);
}
