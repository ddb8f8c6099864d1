import { TeamkitError } from '../../errors/index.js';
import { assertEntryState } from '../entry-states.js';
import { readEach } from '../read-each.js';
import { assertEntryId, storeKeySegments } from '../store-key.js';
import { assertAge, assertLogLine, assertStorableText } from '../stored-text.js';
import type {
  EntryListing,
  EntryState,
  LockOptions,
  LogRead,
  StoreEntryInfo,
  TeamkitStore,
} from '../teamkit-store.js';
import { createMemoryLocks } from './memory-locks.js';
import { createMemoryWatchers } from './memory-watchers.js';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** The clock of `modifiedAt` and `changedAt`; defaults to `Date.now`. */
  now?: () => number;
  /** Defaults for every lock this store takes. */
  lock?: LockOptions;
}

/** The in-memory store: a {@link TeamkitStore} held in one process, for tests and embedding. */
export interface MemoryStore extends TeamkitStore {
  readonly kind: 'memory';
}

interface Value {
  text: string;
  revision: string;
  bytes: number;
  modifiedAt: number;
}

interface Entry {
  text: string;
  bytes: number;
  state: EntryState;
  changedAt: number;
}

interface Log {
  lines: string[];
  modifiedAt: number;
}

const DEFAULT_LOG_READ_BYTES = 16 * 1024 * 1024;

function invalid(message: string, details: Record<string, unknown>): TeamkitError {
  return new TeamkitError('INVALID_INPUT', message, { details });
}

function checkStates(states: readonly EntryState[]): void {
  for (const state of states) assertEntryState(state);
}

/**
 * Creates a store that keeps everything in this process, with the file store's
 * semantics (revisions are counters, never reused): for tests and for embedding the
 * core where nothing needs to outlive the process. It passes the same conformance suite.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const now = options.now ?? Date.now;
  const values = new Map<string, Value>();
  const logs = new Map<string, Log>();
  const collections = new Map<string, Map<string, Entry>>();
  const locks = createMemoryLocks(options.lock ?? {});
  const watchers = createMemoryWatchers();
  let revisions = 0;

  const key = (raw: string, what = 'key') => storeKeySegments(raw, what).join('/');
  const prefixOf = (raw: string) => storeKeySegments(raw, 'prefix', true).join('/');
  const under = (candidate: string, prefix: string) =>
    prefix === '' || candidate.startsWith(`${prefix}/`);

  function setValue(name: string, text: string): string {
    const bytes = assertStorableText(text, name).length;
    revisions += 1;
    const revision = `m${revisions}`;
    values.set(name, { text, revision, bytes, modifiedAt: now() });
    watchers.changed(name, 'put');
    return revision;
  }

  function collectionOf(raw: string): { name: string; entries: Map<string, Entry> } {
    const name = key(raw, 'collection');
    let entries = collections.get(name);
    if (entries === undefined) {
      entries = new Map();
      collections.set(name, entries);
    }
    return { name, entries };
  }

  function allKeys(): string[] {
    return [...values.keys(), ...logs.keys(), ...collections.keys()];
  }

  const store: MemoryStore = {
    kind: 'memory',

    async read(raw) {
      const value = values.get(key(raw));
      return value === undefined ? undefined : { text: value.text, revision: value.revision };
    },
    readMany(keys) {
      return readEach((raw) => store.read(raw), keys);
    },
    async create(raw, text) {
      const name = key(raw);
      assertStorableText(text, name);
      if (values.has(name)) {
        throw new TeamkitError('ALREADY_EXISTS', `${name} already exists; it was left untouched.`, {
          details: { key: name },
        });
      }
      return setValue(name, text);
    },
    async update(raw, text, revision) {
      const name = key(raw);
      if (typeof revision !== 'string' || !/^m[0-9]+$/.test(revision)) {
        throw invalid(
          `${JSON.stringify(revision)} is not a revision of the memory store; pass the revision that read ${name} returned.`,
          { key: name, revision: String(revision) },
        );
      }
      assertStorableText(text, name);
      const current = values.get(name);
      if (current === undefined) {
        throw new TeamkitError(
          'DOCUMENT_NOT_FOUND',
          `${name} does not exist (it was removed, or never created); nothing was written.`,
          { details: { key: name } },
        );
      }
      if (current.revision !== revision) {
        throw new TeamkitError(
          'REVISION_CONFLICT',
          `${name} changed since it was read (revision ${revision} is no longer current); nothing was written. Read it again and retry.`,
          { details: { key: name, revision } },
        );
      }
      return setValue(name, text);
    },
    async put(raw, text) {
      return setValue(key(raw), text);
    },
    async remove(raw) {
      const name = key(raw);
      if (values.delete(name)) watchers.changed(name, 'delete');
    },
    async removeTree(raw) {
      const prefix = key(raw, 'prefix');
      for (const name of [...values.keys(), ...logs.keys()]) {
        if (name !== prefix && !under(name, prefix)) continue;
        values.delete(name);
        logs.delete(name);
        watchers.changed(name, 'delete');
      }
      for (const name of [...collections.keys()]) {
        if (name === prefix || under(name, prefix)) collections.delete(name);
      }
    },
    async list(raw) {
      const prefix = prefixOf(raw);
      const names = new Set<string>();
      for (const name of allKeys()) {
        if (!under(name, prefix)) continue;
        const rest = prefix === '' ? name : name.slice(prefix.length + 1);
        names.add(rest.split('/')[0] as string);
      }
      return [...names].sort();
    },
    async stat(raw): Promise<StoreEntryInfo | undefined> {
      const name = key(raw);
      const value = values.get(name);
      if (value !== undefined) {
        return { kind: 'value', size: value.bytes, modifiedAt: value.modifiedAt };
      }
      const log = logs.get(name);
      if (log !== undefined) {
        const size = log.lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
        return { kind: 'value', size, modifiedAt: log.modifiedAt };
      }
      if (collections.has(name) || allKeys().some((other) => under(other, name))) {
        return { kind: 'folder', size: 0, modifiedAt: now() };
      }
      return undefined;
    },
    async claimMarker(raw) {
      const name = key(raw);
      if (values.has(name)) return false;
      setValue(name, '');
      return true;
    },
    async removeStaleTemporaries(raw, olderThanMs) {
      prefixOf(raw);
      assertAge(olderThanMs);
      return 0;
    },

    async addEntry(raw, id, text, entryOptions = {}) {
      assertEntryId(id);
      const { name } = collectionOf(raw);
      const bytes = assertStorableText(text, `${name}/${id}`).length;
      await locks.withLock(
        name,
        async () => {
          const { entries } = collectionOf(name);
          const existing = entries.get(id);
          if (existing !== undefined) {
            throw new TeamkitError(
              'ALREADY_EXISTS',
              `Entry ${id} is already in ${name} (${existing.state}); nothing was written. Use a new id.`,
              { details: { collection: name, id, state: existing.state } },
            );
          }
          let pendingBytes = 0;
          let count = 0;
          for (const entry of entries.values()) {
            if (entry.state === 'processed') continue;
            pendingBytes += entry.bytes;
            count += 1;
          }
          await entryOptions.admit?.({ bytes: pendingBytes, count });
          collectionOf(name).entries.set(id, { text, bytes, state: 'unread', changedAt: now() });
        },
        entryOptions.lock,
      );
      watchers.entryMoved(name, id);
    },
    async moveEntries(raw, ids, from, to, moveOptions = {}) {
      checkStates([...from, to]);
      if (from.length === 0 || from.includes(to)) {
        throw invalid(
          `Refused to move entries from ${JSON.stringify(from)} to ${JSON.stringify(to)}: "from" must name at least one state, and not "to".`,
          { from, to },
        );
      }
      for (const id of ids) assertEntryId(id);
      const { name } = collectionOf(raw);
      const outcome = { moved: [] as string[], missing: [] as string[] };
      await locks.withLock(
        name,
        async () => {
          const { entries } = collectionOf(name);
          for (const id of new Set(ids)) {
            const entry = entries.get(id);
            if (
              entry === undefined ||
              !from.includes(entry.state) ||
              (moveOptions.changedAtOrBefore !== undefined &&
                entry.changedAt > moveOptions.changedAtOrBefore)
            ) {
              outcome.missing.push(id);
              continue;
            }
            entry.state = to;
            if (moveOptions.at !== undefined) entry.changedAt = moveOptions.at;
            outcome.moved.push(id);
            watchers.entryMoved(name, id);
          }
        },
        moveOptions.lock,
      );
      return outcome;
    },
    async listEntries(raw, state) {
      checkStates([state]);
      const entries = collections.get(key(raw, 'collection'));
      const listing: EntryListing[] = [];
      for (const [id, entry] of entries ?? []) {
        if (entry.state === state)
          listing.push({ id, size: entry.bytes, changedAt: entry.changedAt });
      }
      return listing.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async readEntry(raw, id, state) {
      assertEntryId(id);
      checkStates([state]);
      const entry = collections.get(key(raw, 'collection'))?.get(id);
      return entry?.state === state ? entry.text : undefined;
    },
    async entryState(raw, id) {
      assertEntryId(id);
      return collections.get(key(raw, 'collection'))?.get(id)?.state;
    },
    async watchEntries(raw, onChange, watchOptions = {}) {
      const { name } = collectionOf(raw);
      return watchers.watchEntries(name, onChange, watchOptions);
    },

    async append(raw, line) {
      const name = key(raw, 'log key');
      assertLogLine(line, name);
      const log = logs.get(name) ?? { lines: [], modifiedAt: 0 };
      log.lines.push(line);
      log.modifiedAt = now();
      logs.set(name, log);
      watchers.changed(name, 'put');
    },
    async readLog(raw, cursor, readOptions = {}): Promise<LogRead> {
      const name = key(raw, 'log key');
      if (cursor !== undefined && !/^[0-9]{1,15}$/.test(cursor)) {
        throw invalid(
          `${JSON.stringify(cursor)} is not a cursor of the memory store's logs; pass the cursor readLog returned for ${name}.`,
          { key: name, cursor: String(cursor) },
        );
      }
      const lines = logs.get(name)?.lines ?? [];
      let index = cursor === undefined ? 0 : Number(cursor);
      if (index > lines.length) index = 0;
      const maxBytes = Math.max(readOptions.maxBytes ?? DEFAULT_LOG_READ_BYTES, 1);
      const read: string[] = [];
      let bytes = 0;
      while (index < lines.length) {
        const line = lines[index] as string;
        const size = Buffer.byteLength(line) + 1;
        if (read.length > 0 && bytes + size > maxBytes) break;
        read.push(line);
        bytes += size;
        index += 1;
      }
      const visible = read.filter((line) => line !== '');
      return {
        lines: visible,
        skipped: 0,
        cursor: String(index),
        atEnd: index >= lines.length,
      };
    },

    withLock(raw, fn, lockOptions) {
      return locks.withLock(key(raw, 'lock key'), fn, lockOptions);
    },

    async watch(raw, onChange, watchOptions = {}) {
      return watchers.watch(prefixOf(raw), onChange, watchOptions);
    },

    close: () => watchers.closeAll(),
  };
  return store;
}
