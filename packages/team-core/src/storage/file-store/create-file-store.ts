import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isTeamkitError, TeamkitError } from '../../errors/index.js';
import type { LockOptions } from '../file-lock.js';
import { removeTreeWithRetry } from '../fs-retry.js';
import { storeKeySegments, TEMP_PREFIX, TRASH_PREFIX } from '../store-key.js';
import { assertAge } from '../stored-text.js';
import type { HeldLock, TeamkitStore } from '../teamkit-store.js';
import { createFileValues } from './file-values.js';
import { isStoreInternal } from './internal-names.js';
import { errnoOf, toStoreError } from './io-error.js';
import { createFolderGuard, PRIVATE_FILE_MODE } from './private-folders.js';
import { plantedLink } from './regular-file.js';
import { TOMBSTONE_TARGET } from './revision-chain.js';

type FileEntries = ReturnType<typeof import('./file-entries.js').createFileEntries>;
type AppendLog = ReturnType<typeof import('./append-log.js').createAppendLog>;

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_WRONLY } = fs.constants;

/** Options of {@link createFileStore}. */
export interface FileStoreOptions {
  /** The folder every key is relative to: the Teamkit home. Created (0700) when missing. */
  root: string;
  /** Defaults for every lock this store takes (`withLock` and each collection's lock). */
  lock?: LockOptions;
  /**
   * Whether watches listen to the filesystem's change events (inotify on Linux) besides
   * their timed comparison. Default true; set false on a network filesystem, whose
   * events do not report changes made by other machines.
   */
  watchEvents?: boolean;
}

/** The file store: a {@link TeamkitStore} whose keys are files under `root`. */
export interface FileStore extends TeamkitStore {
  readonly kind: 'file';
  /** The absolute root folder. */
  readonly root: string;
}

/**
 * Creates the file store: keys are paths under `root` laid out exactly as
 * docs/architecture.md shows, so outside readers keep working. Values carry revisions
 * by successor links (docs/storage.md), entries move by renames under a short lock,
 * logs append one line per write; nothing the store does follows a symlink, opens a
 * FIFO or device, or creates anything readable by other users (0700 / 0600).
 */
export function createFileStore(options: FileStoreOptions): FileStore {
  if (typeof options?.root !== 'string' || options.root === '') {
    throw new TeamkitError('INVALID_INPUT', 'createFileStore needs { root }: the Teamkit home.', {
      details: {},
    });
  }
  const guard = createFolderGuard(options.root);
  const lockDefaults = options.lock ?? {};
  const values = createFileValues(guard);
  // Entries, logs, locks and watches load on first use: a process that only lists and
  // reads (`team run status`) does not pay for their modules at start-up.
  let entriesPart: Promise<FileEntries> | undefined;
  const entries = () =>
    (entriesPart ??= import('./file-entries.js').then((part) =>
      part.createFileEntries(guard, lockDefaults),
    ));
  let logsPart: Promise<AppendLog> | undefined;
  const logs = () =>
    (logsPart ??= import('./append-log.js').then((part) => part.createAppendLog(guard)));
  const disposers = new Set<() => Promise<void>>();

  function tracked(dispose: () => Promise<void>): () => Promise<void> {
    const once = async () => {
      disposers.delete(once);
      await dispose();
    };
    disposers.add(once);
    return once;
  }

  function childFolder(prefix: string, create: boolean): string | undefined {
    return guard.folder(storeKeySegments(prefix, 'prefix', true), create);
  }

  async function removeStale(folder: string, cutoff: number, key: string): Promise<number> {
    let removed = 0;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const target = path.join(folder, entry.name);
      const stale = entry.name.startsWith(TEMP_PREFIX) || entry.name.startsWith(TRASH_PREFIX);
      if (stale) {
        const info = fs.lstatSync(target, { throwIfNoEntry: false });
        if (info === undefined || info.mtimeMs > cutoff) continue;
        await removeTreeWithRetry(target);
        removed += 1;
      } else if (entry.isDirectory()) {
        removed += await removeStale(target, cutoff, key);
      }
    }
    return removed;
  }

  const store: FileStore = {
    kind: 'file',
    root: guard.root,
    read: (key) => values.read(key),
    readMany: (keys) => values.readMany(keys),
    create: (key, text) => values.create(key, text),
    update: (key, text, revision) => values.update(key, text, revision),
    put: (key, text) => values.put(key, text),
    remove: (key) => values.remove(key),
    stat: (key) => values.stat(key),

    async removeTree(prefix) {
      const segments = storeKeySegments(prefix, 'prefix');
      const parent = guard.folder(segments.slice(0, -1), false);
      if (parent === undefined) return;
      const target = path.join(parent, segments.at(-1) as string);
      // Renamed aside first, so a removal cut short leaves no half tree under the key.
      const aside = path.join(parent, `${TRASH_PREFIX}${randomUUID()}`);
      try {
        fs.renameSync(target, aside);
      } catch (error) {
        if (errnoOf(error) === 'ENOENT') return;
        throw toStoreError(error, prefix, 'remove');
      }
      guard.forget(segments);
      await removeTreeWithRetry(aside).catch((error: unknown) => {
        throw toStoreError(error, prefix, 'remove');
      });
    },

    async list(prefix) {
      const folder = childFolder(prefix, false);
      if (folder === undefined) return [];
      try {
        return fs
          .readdirSync(folder, { withFileTypes: true })
          .filter((entry) => !isStoreInternal(entry.name, entry.isDirectory()))
          .filter(
            (entry) =>
              !entry.isSymbolicLink() ||
              fs.readlinkSync(path.join(folder, entry.name)) !== TOMBSTONE_TARGET,
          )
          .map((entry) => entry.name)
          .sort();
      } catch (error) {
        throw toStoreError(error, prefix, 'list');
      }
    },

    async claimMarker(key) {
      const segments = storeKeySegments(key);
      const folder = guard.folder(segments.slice(0, -1), true) as string;
      const file = path.join(folder, segments.at(-1) as string);
      try {
        const fd = fs.openSync(
          file,
          O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK,
          PRIVATE_FILE_MODE,
        );
        try {
          fs.fchmodSync(fd, PRIVATE_FILE_MODE);
        } finally {
          fs.closeSync(fd);
        }
        return true;
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST') throw toStoreError(error, key, 'create');
      }
      const info = fs.lstatSync(file, { throwIfNoEntry: false });
      if (info?.isSymbolicLink() === true) {
        const target = fs.readlinkSync(file);
        if (target !== TOMBSTONE_TARGET) throw plantedLink(key, target);
        // A removed marker is absent: claim it like any value that must not exist.
        return values.create(key, '').then(
          () => true,
          (error: unknown) => {
            if (isTeamkitError(error, 'ALREADY_EXISTS')) return false;
            throw error;
          },
        );
      }
      return false;
    },

    async removeStaleTemporaries(prefix, olderThanMs) {
      assertAge(olderThanMs);
      const folder = childFolder(prefix, false);
      if (folder === undefined) return 0;
      try {
        return await removeStale(folder, Date.now() - olderThanMs, prefix);
      } catch (error) {
        throw toStoreError(error, prefix, 'clean up');
      }
    },

    addEntry: async (collection, id, text, entryOptions) =>
      (await entries()).addEntry(collection, id, text, entryOptions),
    moveEntries: async (collection, ids, from, to, moveOptions) =>
      (await entries()).moveEntries(collection, ids, from, to, moveOptions),
    listEntries: async (collection, state) => (await entries()).listEntries(collection, state),
    readEntry: async (collection, id, state) => (await entries()).readEntry(collection, id, state),
    entryState: async (collection, id) => (await entries()).entryState(collection, id),

    async watchEntries(collection, onChange, watchOptions = {}) {
      const folder = guard.folder(storeKeySegments(collection, 'collection'), true) as string;
      const { watchCollectionFolder } = await import('./entry-watch.js');
      try {
        return tracked(
          watchCollectionFolder(
            folder,
            onChange,
            watchOptions.reconcileIntervalMs ?? 1_000,
            watchOptions.onError,
          ),
        );
      } catch (error) {
        throw toStoreError(error, collection, 'watch');
      }
    },

    append: async (key, line) => (await logs()).append(key, line),
    readLog: async (key, cursor, readOptions) => (await logs()).readLog(key, cursor, readOptions),

    async withLock(key, fn, lockOptions) {
      const segments = storeKeySegments(key, 'lock key');
      const folder = guard.folder(segments.slice(0, -1), true) as string;
      const target = path.join(folder, segments.at(-1) as string);
      const { lockedRun } = await import('./locked-run.js');
      return lockedRun(
        target,
        key,
        (held) => {
          const lock: HeldLock = {
            key,
            get compromised() {
              return held.compromised;
            },
            assertHeld: () => held.assertHeld(),
          };
          return fn(lock);
        },
        { ...lockDefaults, ...lockOptions },
      );
    },

    async watch(prefix, onChange, watchOptions = {}) {
      const folder = childFolder(prefix, true) as string;
      const { watchTree } = await import('./tree-watch.js');
      try {
        return tracked(
          watchTree(
            {
              folder,
              prefix,
              reconcileIntervalMs: watchOptions.reconcileIntervalMs ?? 2_000,
              onError: watchOptions.onError,
              fileEvents: options.watchEvents ?? true,
            },
            onChange,
          ),
        );
      } catch (error) {
        throw toStoreError(error, prefix, 'watch');
      }
    },

    async close() {
      await Promise.all([...disposers].map((dispose) => dispose()));
    },
  };
  return store;
}
