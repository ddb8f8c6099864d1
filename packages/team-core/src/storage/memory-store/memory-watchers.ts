import { type ChangeBatcher, createChangeBatcher, reportWatchError } from '../change-batcher.js';
import type { StoreChange, StoreWatchOptions } from '../teamkit-store.js';

interface TreeWatcher {
  prefix: string;
  batcher: ChangeBatcher<StoreChange>;
}

interface EntryWatcher {
  collection: string;
  batcher: ChangeBatcher<string>;
}

const isUnder = (key: string, prefix: string) =>
  prefix === '' || key === prefix || key.startsWith(`${prefix}/`);

/**
 * The watches of the memory store. Every change is seen (nothing can be lost in one
 * process), so the timed reconcile of entry watches only keeps their contract: an
 * `'all'` now and then.
 */
export function createMemoryWatchers() {
  const trees = new Set<TreeWatcher>();
  const entryWatchers = new Set<EntryWatcher>();
  const disposers = new Set<() => Promise<void>>();

  function track(dispose: () => void): () => Promise<void> {
    const once = async () => {
      if (!disposers.delete(once)) return;
      dispose();
    };
    disposers.add(once);
    return once;
  }

  return {
    /** Tells tree watches that `key` changed. */
    changed(key: string, kind: StoreChange['kind']): void {
      for (const watcher of trees) {
        if (isUnder(key, watcher.prefix)) watcher.batcher.add({ key, kind });
      }
    },

    /** Tells entry watches that entry `id` of `collection` moved. */
    entryMoved(collection: string, id: string): void {
      for (const watcher of entryWatchers) {
        if (watcher.collection === collection) watcher.batcher.add(id);
      }
    },

    watch(
      prefix: string,
      onChange: (changes: StoreChange[]) => void,
      options: StoreWatchOptions,
    ): () => Promise<void> {
      const watcher: TreeWatcher = {
        prefix,
        batcher: createChangeBatcher({
          delayMs: 0,
          keyOf: (change) => change.key,
          deliver: onChange,
          onError: options.onError,
        }),
      };
      trees.add(watcher);
      return track(() => {
        trees.delete(watcher);
        watcher.batcher.stop();
      });
    },

    watchEntries(
      collection: string,
      onChange: (ids: string[] | 'all') => void,
      options: StoreWatchOptions,
    ): () => Promise<void> {
      const watcher: EntryWatcher = {
        collection,
        batcher: createChangeBatcher({
          delayMs: 0,
          keyOf: (id) => id,
          deliver: onChange,
          onError: options.onError,
        }),
      };
      entryWatchers.add(watcher);
      const timer = setInterval(() => {
        try {
          onChange('all');
        } catch (error) {
          reportWatchError(options.onError, error);
        }
      }, options.reconcileIntervalMs ?? 1_000);
      return track(() => {
        clearInterval(timer);
        entryWatchers.delete(watcher);
        watcher.batcher.stop();
      });
    },

    async closeAll(): Promise<void> {
      await Promise.all([...disposers].map((dispose) => dispose()));
    },
  };
}
