import fs from 'node:fs';
import path from 'node:path';
import { createChangeBatcher, reportWatchError } from '../change-batcher.js';
import type { StoreChange } from '../teamkit-store.js';
import { isStoreInternal } from './internal-names.js';
import { TOMBSTONE_TARGET } from './revision-chain.js';

/** How {@link watchTree} runs. */
export interface TreeWatchSettings {
  /** The folder watched, checked by the store. */
  folder: string;
  /** The key of that folder (`''` for the root), put before every reported name. */
  prefix: string;
  reconcileIntervalMs: number;
  onError: ((error: unknown) => void) | undefined;
  /** Off only in tests that prove the timed comparison alone heals. */
  fileEvents: boolean;
}

const BATCH_DELAY_MS = 15;

function signatureOf(file: string): string | undefined {
  const info = fs.lstatSync(file, { throwIfNoEntry: false });
  if (info === undefined) return undefined;
  // A removed value is a tombstone link: to a watcher it is gone.
  if (info.isSymbolicLink() && fs.readlinkSync(file) === TOMBSTONE_TARGET) return undefined;
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

/**
 * Watches a folder tree: `fs.watch` on each folder (one inotify watch each) says which
 * folder changed, and only that folder is compared with what was seen before; every
 * `reconcileIntervalMs` all folders are compared, which heals lost events. Changes are
 * reported per file key (`put` for new or changed, `delete` for gone), in batches.
 * Hand-written on `fs.watch` rather than chokidar: the bench's `tree-watch` figure finds
 * the same watch on chokidar slower and several times more CPU-hungry per event.
 */
export function watchTree(
  settings: TreeWatchSettings,
  onChange: (changes: StoreChange[]) => void,
): () => Promise<void> {
  const { folder: base, prefix, onError } = settings;
  const files = new Map<string, string>();
  const folders = new Map<string, fs.FSWatcher | undefined>();
  const batcher = createChangeBatcher<StoreChange>({
    delayMs: BATCH_DELAY_MS,
    keyOf: (change) => change.key,
    deliver: onChange,
    onError,
  });
  let quiet = true;
  let closed = false;

  const keyOf = (rel: string) => (prefix === '' ? rel : rel === '' ? prefix : `${prefix}/${rel}`);
  const absolute = (rel: string) => (rel === '' ? base : path.join(base, rel));
  const parentOf = (rel: string) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
  const join = (rel: string, name: string) => (rel === '' ? name : `${rel}/${name}`);

  function note(rel: string, kind: StoreChange['kind']): void {
    if (!quiet) batcher.add({ key: keyOf(rel), kind });
  }

  function forgetFolder(rel: string): void {
    for (const [name, watcher] of [...folders]) {
      if (name === rel || name.startsWith(`${rel}/`)) {
        watcher?.close();
        folders.delete(name);
      }
    }
    for (const name of [...files.keys()]) {
      if (name.startsWith(`${rel}/`)) {
        files.delete(name);
        note(name, 'delete');
      }
    }
  }

  function addFolder(rel: string): void {
    let watcher: fs.FSWatcher | undefined;
    if (settings.fileEvents) {
      try {
        watcher = fs.watch(absolute(rel), { persistent: true }, () => safeCompare(rel));
        watcher.on('error', (error) => {
          reportWatchError(onError, error);
          watcher?.close();
          if (folders.get(rel) === watcher) folders.set(rel, undefined);
        });
      } catch (error) {
        // Gone already; the next comparison of its parent notices.
        reportWatchError(onError, error);
      }
    }
    folders.set(rel, watcher);
    safeCompare(rel);
  }

  function safeCompare(rel: string): void {
    try {
      compareFolder(rel);
    } catch (error) {
      reportWatchError(onError, error);
    }
  }

  function compareFolder(rel: string): void {
    if (closed || !folders.has(rel)) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absolute(rel), { withFileTypes: true });
    } catch (error) {
      if (rel !== '') forgetFolder(rel);
      else reportWatchError(onError, error);
      return;
    }
    const seenFiles = new Set<string>();
    const seenFolders = new Set<string>();
    for (const entry of entries) {
      const directory = entry.isDirectory();
      if (isStoreInternal(entry.name, directory)) continue;
      const child = join(rel, entry.name);
      if (directory) {
        seenFolders.add(child);
        if (!folders.has(child)) addFolder(child);
        continue;
      }
      const signature = signatureOf(absolute(child));
      if (signature === undefined) continue;
      seenFiles.add(child);
      if (files.get(child) !== signature) {
        files.set(child, signature);
        note(child, 'put');
      }
    }
    for (const name of [...files.keys()]) {
      if (parentOf(name) === rel && !seenFiles.has(name)) {
        files.delete(name);
        note(name, 'delete');
      }
    }
    for (const name of [...folders.keys()]) {
      if (name !== rel && parentOf(name) === rel && !seenFolders.has(name)) forgetFolder(name);
    }
  }

  function compareAll(): void {
    for (const rel of [...folders.keys()]) safeCompare(rel);
  }

  addFolder('');
  quiet = false;
  const timer = setInterval(compareAll, settings.reconcileIntervalMs);

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    batcher.stop();
    for (const watcher of folders.values()) watcher?.close();
    folders.clear();
  };
}
