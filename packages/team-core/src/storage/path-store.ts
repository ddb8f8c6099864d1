import {
  appendFileSync,
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { createFileAtomically, writeFileAtomically } from './atomic-write.js';
import { parseDocument, serializeDocument } from './document.js';
import { type FileLock, type LockOptions, withLock } from './file-lock.js';
import { removeTreeWithRetry, renameWithRetry, unlinkWithRetry } from './fs-retry.js';

/** What {@link PathStore.stat} reports about an entry. */
export interface PathStoreEntryInfo {
  size: number;
  mtimeMs: number;
  isDirectory: boolean;
}

/**
 * The path-based store the mailbox, task list and run state still use while they move
 * to `TeamkitStore` (keys, revisions, entries). Paths are absolute and already
 * contained by the caller; tests wrap it to inject faults. New code uses `TeamkitStore`.
 */
export interface PathStore {
  /** Reads and validates a document; `undefined` when absent. Corrupt: `CORRUPT_DOCUMENT`. */
  readDocument<S extends z.ZodType>(file: string, schema: S): Promise<z.infer<S> | undefined>;
  /** Validates and atomically replaces a document; with `lock`, refuses if the lock was lost. */
  writeDocument<S extends z.ZodType>(
    file: string,
    schema: S,
    value: z.input<S>,
    lock?: FileLock,
  ): Promise<void>;
  /** Validates and atomically creates a document that must not exist yet (`ALREADY_EXISTS`). */
  createDocument<S extends z.ZodType>(file: string, schema: S, value: z.input<S>): Promise<void>;
  /** Reads a text file; `undefined` when absent. */
  readText(file: string): Promise<string | undefined>;
  /** Atomically replaces a text file; with `lock`, refuses if the lock was lost. */
  writeText(file: string, text: string, lock?: FileLock): Promise<void>;
  /** Renames atomically; returns false when the source does not exist. */
  move(from: string, to: string): Promise<boolean>;
  /** Removes a file; a missing file is fine. */
  remove(file: string): Promise<void>;
  /** Removes a folder and everything in it; a missing folder is fine. */
  removeTree(folder: string): Promise<void>;
  /** Names in a folder, sorted; `[]` when the folder does not exist. */
  list(folder: string): Promise<string[]>;
  /** Size, mtime and type of an entry; `undefined` when absent. */
  stat(entry: string): Promise<PathStoreEntryInfo | undefined>;
  /** Creates a folder and its parents. */
  ensureDir(folder: string): Promise<void>;
  /**
   * Overwrites a small file in place with no temp file and no fsync: a crash may leave
   * it torn (old and new bytes mixed) or empty. Only for values that are checked before
   * they are trusted (a cache's version token), never for state.
   */
  writeVolatile(file: string, text: string): Promise<void>;
  /** Appends one line (a newline is added) in a single append write. */
  appendLine(file: string, line: string): Promise<void>;
  /** Runs `fn` under the lock on `file`; see {@link withLock}. */
  withLock<T>(file: string, fn: (lock: FileLock) => Promise<T>, options?: LockOptions): Promise<T>;
}

/** Options for {@link createPathStore}. */
export interface PathStoreOptions {
  /** Defaults for every lock this store takes. */
  lock?: LockOptions;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The filesystem implementation of {@link PathStore}; new code uses `createFileStore`. */
export function createPathStore(options: PathStoreOptions = {}): PathStore {
  const store: PathStore = {
    async readDocument(file, schema) {
      const text = await store.readText(file);
      return text === undefined ? undefined : parseDocument(text, schema, file);
    },
    async writeDocument(file, schema, value, lock) {
      const text = serializeDocument(value, schema, file);
      lock?.assertHeld();
      await writeFileAtomically(file, text);
    },
    async createDocument(file, schema, value) {
      await createFileAtomically(file, serializeDocument(value, schema, file));
    },
    async readText(file) {
      try {
        return readFileSync(file, 'utf8');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async writeText(file, text, lock) {
      lock?.assertHeld();
      await writeFileAtomically(file, text);
    },
    async move(from, to) {
      try {
        await renameWithRetry(from, to);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          if (!existsSync(from)) return false;
        }
        throw error;
      }
    },
    remove: unlinkWithRetry,
    removeTree: removeTreeWithRetry,
    async list(folder) {
      try {
        return readdirSync(folder).sort();
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
    },
    async stat(entry) {
      try {
        const info = statSync(entry, { throwIfNoEntry: false });
        if (info === undefined) return undefined;
        return { size: info.size, mtimeMs: info.mtimeMs, isDirectory: info.isDirectory() };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async ensureDir(folder) {
      mkdirSync(folder, { recursive: true });
    },
    async writeVolatile(file, text) {
      // Overwritten in place, never truncated to zero first: on filesystems mounted with
      // `discard`, freeing and reallocating the block costs more than the write.
      const data = Buffer.from(text);
      let descriptor: number;
      try {
        descriptor = openSync(file, 'r+');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        mkdirSync(path.dirname(file), { recursive: true });
        descriptor = openSync(file, 'w');
      }
      try {
        writeSync(descriptor, data, 0, data.length, 0);
        ftruncateSync(descriptor, data.length);
      } finally {
        closeSync(descriptor);
      }
    },
    async appendLine(file, line) {
      try {
        appendFileSync(file, `${line}\n`, { flag: 'a' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // Only the first line of a log finds its folder missing.
        mkdirSync(path.dirname(file), { recursive: true });
        appendFileSync(file, `${line}\n`, { flag: 'a' });
      }
    },
    withLock(file, fn, lockOptions) {
      return withLock(file, fn, { ...options.lock, ...lockOptions });
    },
  };
  return store;
}
