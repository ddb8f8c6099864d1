import fs from 'node:fs';
import path from 'node:path';
import {
  createChangeBatcher,
  reportWatchError,
  type StoreChange,
} from '@teamkit/team-core/storage';
import { type FSWatcher, watch } from 'chokidar';

// The file store's own names, as the store skips them (revision links, temp files, trees
// being removed, lock folders) and the value a removed key's tombstone link points at.
const isStoreInternal = (name: string, isDirectory: boolean) =>
  name === '.rev' ||
  name.startsWith('.tmp-') ||
  name.startsWith('.trash-') ||
  (isDirectory && (name.endsWith('.lock') || name.endsWith('.lock.takeover')));
const TOMBSTONE_TARGET = 'teamkit:removed';

/** How {@link watchTreeWithChokidar} runs. */
export interface ChokidarTreeWatchSettings {
  /** The folder watched, checked by the store. */
  folder: string;
  /** The key of that folder (`''` for the root), put before every reported name. */
  prefix: string;
  reconcileIntervalMs: number;
  onError: ((error: unknown) => void) | undefined;
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
 * The file store's tree watch written on chokidar, kept only as a contender of the
 * `tree-watch` figure (the store itself uses `fs.watch`, which the figure found faster).
 * Watches a folder tree: chokidar's events name the file or folder that changed, and only
 * that one is compared with what was seen before (a file by inode, size and modification
 * time; a folder by listing it); every `reconcileIntervalMs` the whole tree is compared,
 * which heals lost events. Changes are reported per file key (`put` for new or changed,
 * `delete` for gone), in batches. Resolves once the watcher is live.
 */
export async function watchTreeWithChokidar(
  settings: ChokidarTreeWatchSettings,
  onChange: (changes: StoreChange[]) => void,
): Promise<() => Promise<void>> {
  const { folder: base, prefix, onError } = settings;
  const files = new Map<string, string>();
  const folders = new Set<string>();
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
    for (const name of [...folders]) {
      if (name === rel || name.startsWith(`${rel}/`)) folders.delete(name);
    }
    for (const name of [...files.keys()]) {
      if (name.startsWith(`${rel}/`)) {
        files.delete(name);
        note(name, 'delete');
      }
    }
  }

  function safely(compare: () => void): void {
    try {
      compare();
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
        if (!folders.has(child)) {
          folders.add(child);
          safely(() => compareFolder(child));
        }
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
    for (const name of [...folders]) {
      if (name !== rel && parentOf(name) === rel && !seenFolders.has(name)) forgetFolder(name);
    }
  }

  /** The nearest folder at or above `rel` that was seen, compared (finding what is new). */
  function compareNearest(rel: string): void {
    let known = rel;
    while (known !== '' && !folders.has(known)) known = parentOf(known);
    compareFolder(known);
  }

  /** One file an event named: compared alone while its folder is known. */
  function compareFile(rel: string): void {
    if (!folders.has(parentOf(rel))) {
      compareNearest(parentOf(rel));
      return;
    }
    const signature = signatureOf(absolute(rel));
    if (signature === undefined) {
      if (files.delete(rel)) note(rel, 'delete');
    } else if (files.get(rel) !== signature) {
      files.set(rel, signature);
      note(rel, 'put');
    }
  }

  function onEvent(event: string, file: string): void {
    if (closed) return;
    const rel = path.relative(base, file).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) return;
    const isFolderEvent = event === 'addDir' || event === 'unlinkDir';
    const segments = rel === '' ? [] : rel.split('/');
    const internal = segments.some((segment, index) =>
      isStoreInternal(segment, index < segments.length - 1 || isFolderEvent),
    );
    if (internal) return;
    safely(() => {
      if (!isFolderEvent) compareFile(rel);
      else if (event === 'addDir' || rel === '') compareNearest(rel);
      else compareNearest(parentOf(rel));
    });
  }

  const watcher: FSWatcher = watch(base, {
    ignoreInitial: true,
    persistent: true,
    // A link is never followed out of the home; a tombstone link reads as "gone".
    followSymlinks: false,
    // Deletes are reported at once: the comparison above already tells a replaced file
    // from a removed one.
    atomic: false,
    ignored: (file, stats) =>
      file !== base &&
      isStoreInternal(path.basename(file), stats === undefined ? false : stats.isDirectory()),
  });
  watcher.on('all', onEvent);
  // Without this listener an 'error' event would end the process.
  watcher.on('error', (error) => reportWatchError(onError, error));
  await new Promise<void>((resolve) => watcher.once('ready', resolve));

  folders.add('');
  safely(() => compareFolder(''));
  quiet = false;
  const timer = setInterval(() => {
    for (const rel of [...folders]) safely(() => compareFolder(rel));
  }, settings.reconcileIntervalMs);

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    batcher.stop();
    folders.clear();
    await watcher.close();
  };
}
