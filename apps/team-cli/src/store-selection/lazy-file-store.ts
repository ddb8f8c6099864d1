import type { FileStore, TeamkitStore } from '@teamkit/team-core/storage';

/**
 * The file store rooted at `home`, created on first use: a command that never touches a
 * run (`team run status` on a home without runs) does not load the store's modules. Every
 * method forwards to the one file store it creates; `kind` is `file` from the start, so a
 * caller may take the cheap paths that only hold for the home's folder.
 */
export function createLazyFileStore(home: string): TeamkitStore & { readonly kind: 'file' } {
  let opened: Promise<FileStore> | undefined;
  const store = () => {
    opened ??= import('@teamkit/team-core/storage').then(({ createFileStore }) =>
      createFileStore({ root: home }),
    );
    return opened;
  };
  return {
    kind: 'file',
    read: async (key) => (await store()).read(key),
    readMany: async (keys) => (await store()).readMany(keys),
    create: async (key, text) => (await store()).create(key, text),
    update: async (key, text, revision) => (await store()).update(key, text, revision),
    put: async (key, text) => (await store()).put(key, text),
    remove: async (key) => (await store()).remove(key),
    removeTree: async (prefix) => (await store()).removeTree(prefix),
    list: async (prefix) => (await store()).list(prefix),
    stat: async (key) => (await store()).stat(key),
    claimMarker: async (key) => (await store()).claimMarker(key),
    removeStaleTemporaries: async (prefix, olderThanMs) =>
      (await store()).removeStaleTemporaries(prefix, olderThanMs),
    addEntry: async (collection, id, text, options) =>
      (await store()).addEntry(collection, id, text, options),
    moveEntries: async (collection, ids, from, to, options) =>
      (await store()).moveEntries(collection, ids, from, to, options),
    listEntries: async (collection, state) => (await store()).listEntries(collection, state),
    readEntry: async (collection, id, state) => (await store()).readEntry(collection, id, state),
    entryState: async (collection, id) => (await store()).entryState(collection, id),
    watchEntries: async (collection, onChange, options) =>
      (await store()).watchEntries(collection, onChange, options),
    append: async (key, line) => (await store()).append(key, line),
    readLog: async (key, cursor, options) => (await store()).readLog(key, cursor, options),
    withLock: async (key, fn, options) => (await store()).withLock(key, fn, options),
    watch: async (prefix, onChange, options) => (await store()).watch(prefix, onChange, options),
    async close() {
      if (opened !== undefined) await (await opened).close();
    },
  };
}
