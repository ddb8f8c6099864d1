import fs from 'node:fs';
import { createChangeBatcher, reportWatchError } from '../change-batcher.js';
import { entryIdOf } from './entry-names.js';

/**
 * Watches one collection folder with `fs.watch` (inotify on Linux; one folder, no
 * recursion): a file event names the entry that moved, and `onChange` gets its id on the
 * next turn of the event loop. Every `reconcileIntervalMs` it gets `'all'`, which heals
 * whatever the watcher lost. Errors go to `onError`.
 */
export function watchCollectionFolder(
  folder: string,
  onChange: (ids: string[] | 'all') => void,
  reconcileIntervalMs: number,
  onError: ((error: unknown) => void) | undefined,
): () => Promise<void> {
  let closed = false;
  const batcher = createChangeBatcher<string>({
    delayMs: 0,
    keyOf: (id) => id,
    deliver: onChange,
    onError,
  });

  const watcher = fs.watch(folder, { persistent: true }, (_event, name) => {
    if (name === null) return;
    const id = entryIdOf(name, 'unread') ?? entryIdOf(name, 'reserved');
    if (id !== undefined) batcher.add(id);
  });
  watcher.on('error', (error) => reportWatchError(onError, error));
  const timer = setInterval(() => {
    if (closed) return;
    try {
      onChange('all');
    } catch (error) {
      reportWatchError(onError, error);
    }
  }, reconcileIntervalMs);

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    batcher.stop();
    watcher.close();
  };
}
