import type { StoreChange, StoreWatchOptions } from '../teamkit-store.js';

function report(options: StoreWatchOptions, error: unknown): void {
  try {
    options.onError?.(error);
  } catch {
    // An error handler that throws must not take the process down either.
  }
}

interface TreeWatcher {
  prefix: string;
  pending: Map<string, StoreChange['kind']>;
  flush(): void;
}

interface EntryWatcher {
  collection: string;
  pending: Set<string>;
  flush(): void;
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
        if (!isUnder(key, watcher.prefix)) continue;
        if (watcher.pending.size === 0) setImmediate(() => watcher.flush());
        watcher.pending.set(key, kind);
      }
    },

    /** Tells entry watches that entry `id` of `collection` moved. */
    entryMoved(collection: string, id: string): void {
      for (const watcher of entryWatchers) {
        if (watcher.collection !== collection) continue;
        if (watcher.pending.size === 0) setImmediate(() => watcher.flush());
        watcher.pending.add(id);
      }
    },

    watch(
      prefix: string,
      onChange: (changes: StoreChange[]) => void,
      options: StoreWatchOptions,
    ): () => Promise<void> {
      const watcher: TreeWatcher = {
        prefix,
        pending: new Map(),
        flush() {
          if (!trees.has(watcher) || watcher.pending.size === 0) return;
          const changes = [...watcher.pending]
            .map(([key, kind]) => ({ key, kind }))
            .sort((a, b) => (a.key < b.key ? -1 : 1));
          watcher.pending.clear();
          try {
            onChange(changes);
          } catch (error) {
            report(options, error);
          }
        },
      };
      trees.add(watcher);
      return track(() => trees.delete(watcher));
    },

    watchEntries(
      collection: string,
      onChange: (ids: string[] | 'all') => void,
      options: StoreWatchOptions,
    ): () => Promise<void> {
      const call = (ids: string[] | 'all') => {
        try {
          onChange(ids);
        } catch (error) {
          report(options, error);
        }
      };
      const watcher: EntryWatcher = {
        collection,
        pending: new Set(),
        flush() {
          if (!entryWatchers.has(watcher) || watcher.pending.size === 0) return;
          const ids = [...watcher.pending].sort();
          watcher.pending.clear();
          call(ids);
        },
      };
      entryWatchers.add(watcher);
      const timer = setInterval(() => call('all'), options.reconcileIntervalMs ?? 1_000);
      return track(() => {
        clearInterval(timer);
        entryWatchers.delete(watcher);
      });
    },

    async closeAll(): Promise<void> {
      await Promise.all([...disposers].map((dispose) => dispose()));
    },
  };
}
