import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TeamkitError } from '../../errors/index.js';
import { REVISION_FOLDER, storeKeySegments, TEMP_PREFIX } from '../store-key.js';
import { assertStorableText } from '../stored-text.js';
import type { ReadOutcome, StoredValue, StoreEntryInfo, StoreRevision } from '../teamkit-store.js';
import { readManyValues } from './file-read-many.js';
import { toStoreError } from './io-error.js';
import type { FolderGuard } from './private-folders.js';
import {
  plantedLink,
  removeQuietly,
  type StagedTemp,
  stageTemp,
  syncFolders,
} from './regular-file.js';
import {
  birthLink,
  type ChainHead,
  findHead,
  inoOfRevision,
  linkExclusive,
  pinForeignRevision,
  publish,
  revisionOf,
  successorLink,
  TOMBSTONE_TARGET,
  type ValuePlace,
} from './revision-chain.js';

// Each try of a put or remove follows a commit by another writer, so this bound is only
// reached by a writer outpaced a thousand times in a row.
const MAX_TRIES = 1_000;

/**
 * The values of the file store. A value's file is always some revision of it; the
 * revisions are chained by successor links in `<folder>/.rev` (`<name>@<ino>` is a hard
 * link to the revision that replaced inode `ino`), and a revision is committed by
 * creating that link, which succeeds for exactly one writer. See docs/storage.md.
 */
export function createFileValues(guard: FolderGuard) {
  function placeOf(key: string, create: boolean): ValuePlace | undefined {
    const segments = storeKeySegments(key);
    const parent = segments.slice(0, -1);
    const folder = guard.folder(parent, create);
    if (folder === undefined) return undefined;
    const name = segments[segments.length - 1] as string;
    const revisions = guard.folder([...parent, REVISION_FOLDER], create);
    return { key, name, folder, file: path.join(folder, name), revisions };
  }

  function head(place: ValuePlace, withText: boolean): ChainHead {
    try {
      return findHead(place, withText);
    } catch (error) {
      throw toStoreError(error, place.key, 'read');
    }
  }

  function notFound(key: string): TeamkitError {
    return new TeamkitError(
      'DOCUMENT_NOT_FOUND',
      `${key} does not exist (it was removed, or never created); nothing was written.`,
      { details: { key } },
    );
  }

  function conflict(key: string, revision: string): TeamkitError {
    return new TeamkitError(
      'REVISION_CONFLICT',
      `${key} changed since it was read (revision ${revision} is no longer current); nothing was written. Read it again and retry.`,
      { details: { key, revision } },
    );
  }

  /** Refusal of an update at `revision`, given the head found. */
  function refusal(place: ValuePlace, revision: string): TeamkitError {
    const current = head(place, false);
    return current.kind === 'value' ? conflict(place.key, revision) : notFound(place.key);
  }

  /** Commits `staged` as the successor of the head, whatever it is; for put and create. */
  async function commitOverHead(
    place: ValuePlace,
    staged: StagedTemp,
    mustBeAbsent: boolean,
  ): Promise<void> {
    let birth: string | undefined;
    try {
      for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
        if (attempt >= 10) await delay(Math.random() * Math.min(attempt, 50));
        const current = head(place, false);
        if (current.kind === 'value' && mustBeAbsent) {
          throw new TeamkitError(
            'ALREADY_EXISTS',
            `${place.key} already exists; it was left untouched.`,
            { details: { key: place.key } },
          );
        }
        if (current.kind === 'absent') {
          // The birth link comes first: no inode is ever visible at the value's name
          // before something in .rev keeps it allocated.
          if (birth === undefined) {
            birth = birthLink(place, staged.ino);
            if (!linkExclusive(staged.path, birth, place.key)) birth = undefined;
          }
          if (linkExclusive(staged.path, place.file, place.key)) {
            birth = undefined;
            return;
          }
          continue;
        }
        if (current.kind === 'value' && !current.pinned) {
          if (!pinForeignRevision(place, current.ino)) continue;
        }
        if (linkExclusive(staged.path, successorLink(place, current.ino), place.key)) {
          publish(place, staged.path);
          return;
        }
      }
      throw new TeamkitError(
        'REVISION_CONFLICT',
        `${place.key} kept changing; ${MAX_TRIES} tries to write it were all outpaced. Retry.`,
        { details: { key: place.key } },
      );
    } finally {
      // A birth link of a revision that was never published, or one made redundant by a
      // successor link: nothing refers to it.
      if (birth !== undefined) removeQuietly(birth);
    }
  }

  async function writeAll(
    key: string,
    text: string,
    mustBeAbsent: boolean,
  ): Promise<StoreRevision> {
    const data = assertStorableText(text, key);
    const place = placeOf(key, true) as ValuePlace;
    const staged = await stageTemp(place.folder, data, key);
    try {
      await commitOverHead(place, staged, mustBeAbsent);
    } finally {
      staged.discard();
    }
    await syncFolders([place.revisions as string, place.folder], key);
    return revisionOf(staged.ino);
  }

  return {
    async read(key: string): Promise<StoredValue | undefined> {
      const place = placeOf(key, false);
      if (place === undefined) return undefined;
      const found = head(place, true);
      if (found.kind !== 'value') return undefined;
      return { text: found.text as string, revision: revisionOf(found.ino) };
    },

    async readMany(keys: readonly string[]): Promise<ReadOutcome[]> {
      return readManyValues(keys, placeOf);
    },

    create(key: string, text: string): Promise<StoreRevision> {
      return writeAll(key, text, true);
    },

    put(key: string, text: string): Promise<StoreRevision> {
      return writeAll(key, text, false);
    },

    async update(key: string, text: string, revision: StoreRevision): Promise<StoreRevision> {
      const ino = inoOfRevision(revision, key);
      const data = assertStorableText(text, key);
      const existing = placeOf(key, false);
      if (existing === undefined) throw notFound(key);
      const found = head(existing, false);
      if (found.kind !== 'value') throw notFound(key);
      if (found.ino !== ino) throw conflict(key, revision);
      const place =
        existing.revisions === undefined ? (placeOf(key, true) as ValuePlace) : existing;
      if (!found.pinned && !pinForeignRevision(place, ino)) throw refusal(place, revision);
      const staged = await stageTemp(place.folder, data, key);
      try {
        // The commit point: exactly one writer creates the successor link of `ino`.
        if (!linkExclusive(staged.path, successorLink(place, ino), key)) {
          throw refusal(place, revision);
        }
        publish(place, staged.path);
      } finally {
        staged.discard();
      }
      await syncFolders([place.revisions as string, place.folder], key);
      return revisionOf(staged.ino);
    },

    async remove(key: string): Promise<void> {
      const existing = placeOf(key, false);
      if (existing === undefined) return;
      if (head(existing, false).kind !== 'value') return;
      const place =
        existing.revisions === undefined ? (placeOf(key, true) as ValuePlace) : existing;
      for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
        if (attempt >= 10) await delay(Math.random() * Math.min(attempt, 50));
        const current = head(place, false);
        if (current.kind !== 'value') return;
        if (!current.pinned && !pinForeignRevision(place, current.ino)) continue;
        // The tombstone is a revision too: a symlink nothing can follow, committed like
        // any other, so a stalled writer's late publish cannot bring the value back.
        const tombstone = path.join(place.folder, `${TEMP_PREFIX}${randomUUID()}`);
        try {
          fs.symlinkSync(TOMBSTONE_TARGET, tombstone);
        } catch (error) {
          throw toStoreError(error, key, 'remove');
        }
        try {
          if (linkExclusive(tombstone, successorLink(place, current.ino), key)) {
            publish(place, tombstone);
            await syncFolders([place.revisions as string, place.folder], key);
            return;
          }
        } finally {
          removeQuietly(tombstone);
        }
      }
      throw new TeamkitError(
        'REVISION_CONFLICT',
        `${key} kept changing; ${MAX_TRIES} tries to remove it were all outpaced. Retry.`,
        { details: { key } },
      );
    },

    async stat(key: string): Promise<StoreEntryInfo | undefined> {
      const place = placeOf(key, false);
      if (place === undefined) return undefined;
      let info: fs.Stats | undefined;
      try {
        info = fs.lstatSync(place.file, { throwIfNoEntry: false });
      } catch (error) {
        throw toStoreError(error, key, 'inspect');
      }
      if (info === undefined) return undefined;
      if (info.isDirectory()) return { kind: 'folder', size: 0, modifiedAt: info.mtimeMs };
      if (info.isSymbolicLink() && fs.readlinkSync(place.file) !== TOMBSTONE_TARGET) {
        throw plantedLink(key, fs.readlinkSync(place.file));
      }
      const found = head(place, false);
      if (found.kind !== 'value') return undefined;
      return { kind: 'value', size: found.size, modifiedAt: found.modifiedAt };
    },
  };
}

/** The value operations of the file store. */
export type FileValues = ReturnType<typeof createFileValues>;
