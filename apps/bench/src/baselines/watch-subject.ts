import { type FSWatcher, renameSync, watch } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { messageDocument } from '../message-body.js';

/** A sender plus a watcher on the recipient's inbox, for arrival latency. */
export interface WatchSubject {
  /** Starts watching; `onArrival(id)` must be called as soon as message `id` is seen. */
  start(onArrival: (id: string) => void): Promise<void>;
  /**
   * Sends message `id` and resolves with the `performance.now()` at which the latency
   * clock started (taken inside, right before the step being measured).
   */
  send(id: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The raw floor of arrival notification: `fs.watch` on the inbox folder; the writer
 * writes a temp file beside it and the clock starts just before the rename into place.
 */
export function createRawWatchSubject(folder: string): WatchSubject {
  const inbox = path.join(folder, 'inbox');
  let watcher: FSWatcher | undefined;
  return {
    async start(onArrival) {
      await mkdir(inbox, { recursive: true });
      watcher = watch(inbox, (_event, filename) => {
        if (filename === null || filename.startsWith('.') || !filename.endsWith('.json')) return;
        onArrival(filename.slice(0, -'.json'.length));
      });
    },
    async send(id) {
      const temp = path.join(inbox, `.tmp-${id}.json`);
      await writeFile(temp, messageDocument('lead', 'builder', 0));
      const started = performance.now();
      renameSync(temp, path.join(inbox, `${id}.json`));
      return started;
    },
    async close() {
      watcher?.close();
    },
  };
}
