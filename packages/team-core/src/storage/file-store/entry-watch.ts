import fs from 'node:fs';
import { entryIdOf } from './entry-names.js';

/** Reports an error to the caller's handler; a handler that throws is ignored too. */
export function reportTo(onError: ((error: unknown) => void) | undefined, error: unknown): void {
  try {
    onError?.(error);
  } catch {
    // An error handler that throws must not take the process down either.
  }
}

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
  const pending = new Set<string>();
  let scheduled = false;
  let closed = false;

  const call = (ids: string[] | 'all') => {
    if (closed) return;
    try {
      onChange(ids);
    } catch (error) {
      reportTo(onError, error);
    }
  };

  const watcher = fs.watch(folder, { persistent: true }, (_event, name) => {
    if (name === null) return;
    const id = entryIdOf(name, 'unread') ?? entryIdOf(name, 'reserved');
    if (id === undefined) return;
    pending.add(id);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const ids = [...pending].sort();
      pending.clear();
      if (ids.length > 0) call(ids);
    });
  });
  watcher.on('error', (error) => reportTo(onError, error));
  const timer = setInterval(() => call('all'), reconcileIntervalMs);

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    watcher.close();
  };
}
