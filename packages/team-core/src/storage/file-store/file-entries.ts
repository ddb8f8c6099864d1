import fs from 'node:fs';
import path from 'node:path';
import { TeamkitError } from '../../errors/index.js';
import { assertEntryState, ENTRY_STATES } from '../entry-states.js';
import type { FileLock, LockOptions } from '../file-lock.js';
import { assertEntryId, storeKeySegments } from '../store-key.js';
import { assertStorableText } from '../stored-text.js';
import type {
  AddEntryOptions,
  EntryListing,
  EntryMoveOutcome,
  EntryState,
  MoveEntriesOptions,
} from '../teamkit-store.js';
import { entryFileName, entryIdOf, PROCESSED_FOLDER } from './entry-names.js';
import { errnoOf, toStoreError } from './io-error.js';
import { lockedRun } from './locked-run.js';
import { createPendingLedger } from './pending-ledger.js';
import type { FolderGuard } from './private-folders.js';
import {
  openRegular,
  plantedLink,
  READ_FLAGS,
  readOpened,
  stageTemp,
  syncFolders,
} from './regular-file.js';

function assertStates(from: readonly EntryState[], to: EntryState): void {
  for (const state of [...from, to]) assertEntryState(state);
  if (from.length === 0 || from.includes(to)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `Refused to move entries from ${JSON.stringify(from)} to ${JSON.stringify(to)}: "from" must name at least one state, and not "to".`,
      { details: { from, to } },
    );
  }
}

/**
 * The entries of the file store: each entry is its own file, moved between its three
 * names by renames inside the collection folder, every change under the collection's
 * short lock (`<collection>.lock`) so duplicate checks and admission totals are exact
 * across processes.
 */
export function createFileEntries(guard: FolderGuard, lockDefaults: LockOptions) {
  const ledger = createPendingLedger();

  function collectionFolder(collection: string, create: boolean): string | undefined {
    return guard.folder(storeKeySegments(collection, 'collection'), create);
  }

  function fileOf(folder: string, id: string, state: EntryState): string {
    const name = entryFileName(id, state);
    return state === 'processed'
      ? path.join(folder, PROCESSED_FOLDER, name)
      : path.join(folder, name);
  }

  function exists(file: string, key: string): boolean {
    try {
      return fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
    } catch (error) {
      throw toStoreError(error, key, 'inspect');
    }
  }

  function locked<T>(
    folder: string,
    collection: string,
    fn: (lock: FileLock) => Promise<T>,
    lockOptions: LockOptions | undefined,
  ): Promise<T> {
    return lockedRun(
      folder,
      collection,
      async (lock) => {
        const result = await fn(lock);
        lock.assertHeld();
        return result;
      },
      { ...lockDefaults, ...lockOptions },
    );
  }

  function stateOf(folder: string, id: string, collection: string): EntryState | undefined {
    return ENTRY_STATES.find((state) => exists(fileOf(folder, id, state), `${collection}/${id}`));
  }

  return {
    async addEntry(
      collection: string,
      id: string,
      text: string,
      options: AddEntryOptions = {},
    ): Promise<void> {
      assertEntryId(id);
      const data = assertStorableText(text, `${collection}/${id}`);
      const folder = collectionFolder(collection, true) as string;
      // The slow part (write and fsync) happens before the lock is taken.
      const staged = await stageTemp(folder, data, `${collection}/${id}`);
      try {
        await locked(
          folder,
          collection,
          async (lock) => {
            const state = stateOf(folder, id, collection);
            if (state !== undefined) {
              throw new TeamkitError(
                'ALREADY_EXISTS',
                `Entry ${id} is already in ${collection} (${state}); nothing was written. Use a new id.`,
                { details: { collection, id, state } },
              );
            }
            await options.admit?.(ledger.pending(folder, collection));
            // The last moment to notice a lock lost during a slow admission check.
            lock.assertHeld();
            const token = ledger.changing(folder, collection);
            const name = entryFileName(id, 'unread');
            try {
              fs.linkSync(staged.path, path.join(folder, name));
            } catch (error) {
              ledger.forget(folder);
              throw toStoreError(error, `${collection}/${id}`, 'add');
            }
            ledger.added(folder, token, name, data.length);
          },
          options.lock,
        );
      } finally {
        staged.discard();
      }
      await syncFolders([folder], collection);
    },

    async moveEntries(
      collection: string,
      ids: readonly string[],
      from: readonly EntryState[],
      to: EntryState,
      options: MoveEntriesOptions = {},
    ): Promise<EntryMoveOutcome> {
      assertStates(from, to);
      for (const id of ids) assertEntryId(id);
      const outcome: EntryMoveOutcome = { moved: [], missing: [] };
      const unique = [...new Set(ids)];
      const folder = unique.length === 0 ? undefined : collectionFolder(collection, false);
      if (folder === undefined) {
        outcome.missing.push(...unique);
        return outcome;
      }
      const touchesProcessed = to === 'processed' || from.includes('processed');
      if (to === 'processed')
        guard.folder([...storeKeySegments(collection), PROCESSED_FOLDER], true);
      // Under the lock nothing else moves an entry, so its time cannot change after this look.
      const changedBy = (file: string, key: string): boolean => {
        let info: fs.Stats | undefined;
        try {
          info = fs.lstatSync(file, { throwIfNoEntry: false });
        } catch (error) {
          throw toStoreError(error, key, 'inspect');
        }
        return info !== undefined && info.mtimeMs <= (options.changedAtOrBefore as number);
      };
      await locked(
        folder,
        collection,
        async () => {
          ledger.changing(folder, collection);
          ledger.forget(folder);
          for (const id of unique) {
            const key = `${collection}/${id}`;
            const target = fileOf(folder, id, to);
            const moved = from.some((state) => {
              const source = fileOf(folder, id, state);
              if (options.changedAtOrBefore !== undefined && !changedBy(source, key)) return false;
              try {
                fs.renameSync(source, target);
                return true;
              } catch (error) {
                if (errnoOf(error) === 'ENOENT') return false;
                throw toStoreError(error, key, 'move');
              }
            });
            if (!moved) {
              outcome.missing.push(id);
              continue;
            }
            outcome.moved.push(id);
            if (options.at !== undefined) {
              try {
                fs.utimesSync(target, options.at / 1_000, options.at / 1_000);
              } catch (error) {
                throw toStoreError(error, key, 'stamp');
              }
            }
          }
        },
        options.lock,
      );
      const processed = path.join(folder, PROCESSED_FOLDER);
      await syncFolders(
        touchesProcessed && fs.existsSync(processed) ? [folder, processed] : [folder],
        collection,
      );
      return outcome;
    },

    async listEntries(collection: string, state: EntryState): Promise<EntryListing[]> {
      assertEntryState(state);
      const segments = storeKeySegments(collection, 'collection');
      const folder = guard.folder(
        state === 'processed' ? [...segments, PROCESSED_FOLDER] : segments,
        false,
      );
      if (folder === undefined) return [];
      const listing: EntryListing[] = [];
      try {
        for (const name of fs.readdirSync(folder)) {
          const id = entryIdOf(name, state);
          if (id === undefined) continue;
          const info = fs.lstatSync(path.join(folder, name), { throwIfNoEntry: false });
          if (info === undefined) continue;
          listing.push({ id, size: info.size, changedAt: info.mtimeMs });
        }
      } catch (error) {
        throw toStoreError(error, collection, 'list');
      }
      return listing.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async readEntry(
      collection: string,
      id: string,
      state: EntryState,
    ): Promise<string | undefined> {
      assertEntryId(id);
      assertEntryState(state);
      const folder = collectionFolder(collection, false);
      if (folder === undefined) return undefined;
      if (
        state === 'processed' &&
        guard.folder([...storeKeySegments(collection), PROCESSED_FOLDER], false) === undefined
      ) {
        return undefined;
      }
      const key = `${collection}/${entryFileName(id, state)}`;
      const opened = openRegular(fileOf(folder, id, state), READ_FLAGS, key);
      if (opened.kind === 'absent') return undefined;
      if (opened.kind === 'symlink') throw plantedLink(key, opened.target);
      try {
        return readOpened(opened.fd, opened.info, key);
      } finally {
        fs.closeSync(opened.fd);
      }
    },

    async entryState(collection: string, id: string): Promise<EntryState | undefined> {
      assertEntryId(id);
      const folder = collectionFolder(collection, false);
      if (folder === undefined) return undefined;
      // Unlocked first; a miss may be an entry moving backwards (released) between two
      // looks, so it is confirmed under the lock.
      const seen = stateOf(folder, id, collection);
      if (seen !== undefined) return seen;
      return locked(folder, collection, async () => stateOf(folder, id, collection), undefined);
    },
  };
}

/** The entry operations of the file store. */
export type FileEntries = ReturnType<typeof createFileEntries>;
