import fs from 'node:fs';
import path from 'node:path';
import { storeKeySegments } from '../store-key.js';
import type { ReadOutcome, StoredValue } from '../teamkit-store.js';
import { toStoreError } from './io-error.js';
import { openRegular, READ_FLAGS, readOpened } from './regular-file.js';
import { findHead, revisionOf, type ValuePlace } from './revision-chain.js';

/** Where a key's value lives, or `undefined` when its folder is absent (see `createFileValues`). */
export type PlaceOf = (key: string, create: false) => ValuePlace | undefined;

// Why one listing of `.rev` is enough: it is taken before any value of the folder is
// opened. A revision found at a value's name whose successor link is not in the listing
// had no successor when the listing was taken, and was committed before it was opened,
// so it was the newest revision at some moment during the call: what `read` returns.
// When the listing names a successor (a writer committed and has not published yet, or
// a stalled writer published an older revision late), the chain is walked as `read` does.

function readListed(place: ValuePlace, successors: ReadonlySet<string>): StoredValue | undefined {
  const opened = openRegular(place.file, READ_FLAGS, place.key);
  if (opened.kind === 'absent') return undefined;
  if (opened.kind === 'file') {
    const ino = opened.info.ino.toString();
    try {
      if (!successors.has(`${place.name}@${ino}`)) {
        return { text: readOpened(opened.fd, opened.info, place.key), revision: revisionOf(ino) };
      }
    } finally {
      fs.closeSync(opened.fd);
    }
  }
  // A successor to follow, a tombstone, or a planted link: the full walk decides.
  const found = findHead(place, true);
  return found.kind === 'value'
    ? { text: found.text as string, revision: revisionOf(found.ino) }
    : undefined;
}

function listSuccessors(revisions: string | undefined, key: string): Set<string> {
  if (revisions === undefined) return new Set();
  try {
    return new Set(fs.readdirSync(revisions));
  } catch (error) {
    throw toStoreError(error, key, 'read');
  }
}

function failure(error: unknown, key: string): ReadOutcome {
  return { error: toStoreError(error, key, 'read') };
}

/**
 * The file store's `readMany`: keys are grouped by folder; each folder is checked and its
 * `.rev` listed once, then each value costs what a plain file read costs (open, fstat,
 * read, close) unless the listing says it has a successor.
 */
export function readManyValues(keys: readonly string[], placeOf: PlaceOf): ReadOutcome[] {
  const outcomes: ReadOutcome[] = new Array(keys.length);
  const folders = new Map<string, number[]>();
  keys.forEach((key, index) => {
    try {
      const parent = storeKeySegments(key).slice(0, -1).join('/');
      const members = folders.get(parent) ?? [];
      members.push(index);
      folders.set(parent, members);
    } catch (error) {
      outcomes[index] = failure(error, key);
    }
  });
  for (const members of folders.values()) {
    const first = keys[members[0] as number] as string;
    let folder: ValuePlace | undefined;
    let successors: Set<string>;
    try {
      folder = placeOf(first, false);
      successors = listSuccessors(folder?.revisions, first);
    } catch (error) {
      for (const index of members) outcomes[index] = failure(error, keys[index] as string);
      continue;
    }
    for (const index of members) {
      const key = keys[index] as string;
      if (folder === undefined) {
        outcomes[index] = { value: undefined };
        continue;
      }
      const name = key.slice(key.lastIndexOf('/') + 1);
      const file = `${folder.folder}${path.sep}${name}`;
      const place: ValuePlace = { ...folder, key, name, file };
      try {
        outcomes[index] = { value: readListed(place, successors) };
      } catch (error) {
        outcomes[index] = failure(error, key);
      }
    }
  }
  return outcomes;
}
