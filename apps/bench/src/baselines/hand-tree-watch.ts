import fs from 'node:fs';
import path from 'node:path';
import type { StoreChange } from '@teamkit/team-core/storage';

// The file store's own names, as the store skips them (revision links, temp files, trees
// being removed, lock folders) and the value a removed key's tombstone link points at.
const isStoreInternal = (name: string, isDirectory: boolean) =>
  name === '.rev' ||
  name.startsWith('.tmp-') ||
  name.startsWith('.trash-') ||
  (isDirectory && (name.endsWith('.lock') || name.endsWith('.lock.takeover')));
const TOMBSTONE_TARGET = 'teamkit:removed';
const BATCH_DELAY_MS = 15;

function signatureOf(file: string): string | undefined {
  const info = fs.lstatSync(file, { throwIfNoEntry: false });
  if (info === undefined) return undefined;
  if (info.isSymbolicLink() && fs.readlinkSync(file) === TOMBSTONE_TARGET) return undefined;
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

/**
 * The file store's tree watch as it was before it used chokidar, kept only as the
 * baseline of the `tree-watch` figure: `fs.watch` on each folder of the tree says which
 * folder changed, that folder is compared with what was seen before, and every
 * `reconcileIntervalMs` all folders are compared. Changes go out per key in batches.
 */
export function watchTreeByHand(
  base: string,
  reconcileIntervalMs: number,
  onChange: (changes: StoreChange[]) => void,
): () => Promise<void> {
  const files = new Map<string, string>();
  const folders = new Map<string, fs.FSWatcher | undefined>();
  const batch = new Map<string, StoreChange['kind']>();
  let quiet = true;
  let closed = false;
  let flushTimer: NodeJS.Timeout | undefined;

  const absolute = (rel: string) => (rel === '' ? base : path.join(base, rel));
  const parentOf = (rel: string) => (rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
  const join = (rel: string, name: string) => (rel === '' ? name : `${rel}/${name}`);

  function flush(): void {
    flushTimer = undefined;
    if (closed || batch.size === 0) return;
    const changes = [...batch]
      .map(([key, kind]) => ({ key, kind }))
      .sort((a, b) => (a.key < b.key ? -1 : 1));
    batch.clear();
    onChange(changes);
  }

  function note(rel: string, kind: StoreChange['kind']): void {
    if (quiet) return;
    batch.set(rel, kind);
    flushTimer ??= setTimeout(flush, BATCH_DELAY_MS);
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
    try {
      watcher = fs.watch(absolute(rel), { persistent: true }, () => safeCompare(rel));
      watcher.on('error', () => {
        watcher?.close();
        if (folders.get(rel) === watcher) folders.set(rel, undefined);
      });
    } catch {
      // Gone already; the next comparison of its parent notices.
    }
    folders.set(rel, watcher);
    safeCompare(rel);
  }

  function safeCompare(rel: string): void {
    try {
      compareFolder(rel);
    } catch {
      // A file that went away between listing and reading: the next comparison settles it.
    }
  }

  function compareFolder(rel: string): void {
    if (closed || !folders.has(rel)) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absolute(rel), { withFileTypes: true });
    } catch {
      if (rel !== '') forgetFolder(rel);
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

  addFolder('');
  quiet = false;
  const timer = setInterval(() => {
    for (const rel of [...folders.keys()]) safeCompare(rel);
  }, reconcileIntervalMs);

  return async () => {
    closed = true;
    clearInterval(timer);
    if (flushTimer !== undefined) clearTimeout(flushTimer);
    for (const watcher of folders.values()) watcher?.close();
    folders.clear();
  };
}
