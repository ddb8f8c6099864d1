import path from 'node:path';
import type { LockOptions } from './file-lock.js';
import { createFileStore, type FileStore } from './file-store/create-file-store.js';

// One file store per home and process: the store checks each folder once and remembers
// it, so commands that open a run many times do not pay for the checks again.
const shared = new Map<string, FileStore>();

/**
 * The default store of a Teamkit home: the file store rooted at `home`. Without lock
 * tuning the store is shared by every caller in this process.
 */
export function storeForHome(home: string, lock?: LockOptions): FileStore {
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
