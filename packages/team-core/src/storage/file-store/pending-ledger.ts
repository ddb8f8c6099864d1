import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PendingTotals } from '../teamkit-store.js';
import { entryIdOf } from './entry-names.js';
import { errnoOf, toStoreError } from './io-error.js';
import { describeType, PRIVATE_FILE_MODE } from './private-folders.js';
import { wrongType } from './regular-file.js';

/** The file in each collection whose random token changes before every change to it. */
export const VERSION_FILE = '.version';

const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const { O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_RDWR } = fs.constants;

/** What this process last knew of a collection: its pending files' sizes, as of `token`. */
interface CollectionView {
  token: string;
  sizes: Map<string, number>;
  bytes: number;
}

/**
 * Knows a collection's unread + reserved totals (the admission check's measure) without
 * listing it on every add. The protocol, for every caller holding the collection's lock:
 * before any change (an entry linked in, an entry moved), write a fresh random token to
 * `<collection>/.version` ({@link PendingLedger.changing}). A process reuses its view only
 * while that file still holds the token of its view; anything else (another process
 * changed the collection, the file is torn, empty or gone) makes it list again. The token
 * is written before the change, so a process that dies between the two leaves every other
 * view invalid, never stale. See docs/mailbox.md.
 */
export interface PendingLedger {
  /** Pending totals of the collection in `folder`; call under its lock. */
  pending(folder: string, key: string): PendingTotals;
  /** Marks the collection as changing; call under its lock, before the change. Returns the token. */
  changing(folder: string, key: string): string;
  /** Records an entry file linked in, in the same hold of the lock as the two calls above. */
  added(folder: string, token: string, name: string, bytes: number): void;
  /** Forgets this process's view of the collection (after a change it did not follow). */
  forget(folder: string): void;
}

function readToken(file: string, key: string): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = errnoOf(error);
    // Missing, or anything but a regular file (a planted link): no token, list instead.
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENXIO') return undefined;
    throw toStoreError(error, `${key}/${VERSION_FILE}`, 'read');
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(64);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    return TOKEN.test(text) ? text : undefined;
  } finally {
    fs.closeSync(fd);
  }
}

// Overwritten in place, never truncated to zero first, and not fsynced: a torn token
// matches no view, and after a power loss no process holds a view.
function writeToken(file: string, token: string, key: string): void {
  const data = Buffer.from(token);
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK, PRIVATE_FILE_MODE);
  } catch (error) {
    throw toStoreError(error, `${key}/${VERSION_FILE}`, 'write');
  }
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile()) throw wrongType(`${key}/${VERSION_FILE}`, describeType(info));
    if ((info.mode & 0o777) !== PRIVATE_FILE_MODE) fs.fchmodSync(fd, PRIVATE_FILE_MODE);
    fs.writeSync(fd, data, 0, data.length, 0);
    fs.ftruncateSync(fd, data.length);
  } catch (error) {
    throw toStoreError(error, `${key}/${VERSION_FILE}`, 'write');
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates the {@link PendingLedger} of one store instance. */
export function createPendingLedger(): PendingLedger {
  const views = new Map<string, CollectionView>();

  function list(folder: string, key: string, known: Map<string, number>) {
    const sizes = new Map<string, number>();
    let bytes = 0;
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return { sizes, bytes };
      throw toStoreError(error, key, 'list');
    }
    for (const name of names) {
      if (entryIdOf(name, 'unread') === undefined && entryIdOf(name, 'reserved') === undefined) {
        continue;
      }
      // A pending entry file never changes (linked once, then only renamed between its
      // unread and reserved names), so a size seen once stays right.
      let size = known.get(name);
      if (size === undefined) {
        const info = fs.lstatSync(path.join(folder, name), { throwIfNoEntry: false });
        if (info === undefined) continue;
        size = info.size;
      }
      sizes.set(name, size);
      bytes += size;
    }
    return { sizes, bytes };
  }

  return {
    pending(folder, key) {
      const token = readToken(path.join(folder, VERSION_FILE), key);
      const view = views.get(folder);
      if (view !== undefined && token !== undefined && view.token === token) {
        return { bytes: view.bytes, count: view.sizes.size };
      }
      const fresh = list(folder, key, view?.sizes ?? new Map());
      views.set(folder, { ...fresh, token: token ?? '' });
      return { bytes: fresh.bytes, count: fresh.sizes.size };
    },
    changing(folder, key) {
      const token = randomUUID();
      writeToken(path.join(folder, VERSION_FILE), token, key);
      return token;
    },
    added(folder, token, name, bytes) {
      const view = views.get(folder);
      if (view === undefined) return;
      view.sizes.set(name, bytes);
      view.bytes += bytes;
      view.token = token;
    },
    forget(folder) {
      views.delete(folder);
    },
  };
}
