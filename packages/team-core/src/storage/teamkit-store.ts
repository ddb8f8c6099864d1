import type { TeamkitError } from '../errors/index.js';
import type { LockOptions } from './file-lock.js';

export type { LockOptions } from './file-lock.js';

/**
 * A `/`-separated key relative to the store's root, e.g. `runtime/<runId>/tasks/7.json`.
 * Every segment is checked before use: ASCII letters, digits, `.`, `_` and `-` only, not
 * `.` or `..`, not a name the store keeps for itself (`.rev`, `.tmp-*`, `.trash-*`); a
 * bad key is `PATH_TRAVERSAL` and nothing is touched. In the file store a key is the
 * path of a file under the Teamkit home, so outside readers see today's layout.
 */
export type StoreKey = string;

/** An opaque revision of a value: compare for equality only, never parse. */
export type StoreRevision = string;

/** A value and the revision it was read at. */
export interface StoredValue {
  readonly text: string;
  readonly revision: StoreRevision;
}

/**
 * One key's outcome in {@link TeamkitStore.readMany}: what `read` of that key would have
 * returned (`value`, `undefined` when absent), or the typed error it would have thrown.
 */
export type ReadOutcome = { value: StoredValue | undefined } | { error: TeamkitError };

/** What {@link TeamkitStore.stat} reports. */
export interface StoreEntryInfo {
  kind: 'value' | 'folder';
  /** Bytes of a value; 0 for a folder. */
  size: number;
  /** When the value was last written (epoch ms). */
  modifiedAt: number;
}

/**
 * The three states an entry (a message) moves between. Entries are immutable texts with
 * an id; only their state changes, atomically, one state at a time. File store layout
 * (the inbox layout): unread `<collection>/<id>.json`, reserved
 * `<collection>/.delivering-<id>.json`, processed `<collection>/processed/<id>.json`.
 */
export type EntryState = 'unread' | 'reserved' | 'processed';

/** One entry as listed: its id, size in bytes and when it last changed state (epoch ms). */
export interface EntryListing {
  id: string;
  size: number;
  changedAt: number;
}

/** What an admission check sees: the collection's unread + reserved totals, exact under its lock. */
export interface PendingTotals {
  /** UTF-8 bytes of every unread and reserved entry. */
  bytes: number;
  /** How many entries are unread or reserved. */
  count: number;
}

/** Options of {@link TeamkitStore.addEntry}. */
export interface AddEntryOptions {
  /**
   * Runs while the collection is locked, after the duplicate check and before the entry
   * becomes visible; throwing refuses the add, nothing is written and the error reaches
   * the caller as thrown (backpressure caps, the run's message budget). The new entry's
   * own size is not in `pending`.
   */
  admit?: (pending: PendingTotals) => void | Promise<void>;
  /** Tuning of the collection's lock for this call, over the store's own (as `withLock` takes). */
  lock?: LockOptions;
}

/** Options of {@link TeamkitStore.moveEntries}. */
export interface MoveEntriesOptions {
  /** Tuning of the collection's lock for this call, over the store's own (as `withLock` takes). */
  lock?: LockOptions;
  /** Sets the moved entries' `changedAt` (the reclaim clock of a reservation); kept when omitted. */
  at?: number;
  /**
   * Moves an entry only if its `changedAt` is at or before this time (epoch ms), checked
   * under the collection's lock; a newer entry is reported `missing`. Reclaim uses it to
   * take back only reservations that are still stale when it holds the lock.
   */
  changedAtOrBefore?: number;
}

/** What a move did: ids moved, and ids not found in any `from` state. */
export interface EntryMoveOutcome {
  moved: string[];
  missing: string[];
}

/** A change a watch saw. `kind: 'unknown'` means "something under the key changed; re-read". */
export interface StoreChange {
  key: StoreKey;
  kind: 'put' | 'delete' | 'unknown';
}

/** Options of {@link TeamkitStore.watch} and {@link TeamkitStore.watchEntries}. */
export interface StoreWatchOptions {
  /**
   * How often the watched keys are compared in full, whatever the change events said
   * (events get lost); default 1 000 ms for entries, 2 000 ms for a prefix.
   */
  reconcileIntervalMs?: number;
  /** Watch errors go here, never to the process. */
  onError?: (error: unknown) => void;
}

/** A position in a log; opaque. */
export type LogCursor = string;

/** Options of {@link TeamkitStore.readLog}. */
export interface ReadLogOptions {
  /** Stop after about this many bytes (whole lines only); default 16 MiB. */
  maxBytes?: number;
}

/**
 * Lines read from a log after a cursor. Lines that cannot be text (invalid UTF-8, NUL
 * bytes: a torn write after a crash) are skipped and counted; a last line still without
 * its newline is left for the next read.
 */
export interface LogRead {
  lines: string[];
  skipped: number;
  /** Where the next read starts. */
  cursor: LogCursor;
  /** False when `maxBytes` stopped the read before the end: read again from `cursor`. */
  atEnd: boolean;
}

/** A lock held by this process; `assertHeld` throws `LOCK_COMPROMISED` once it was lost. */
export interface HeldLock {
  readonly key: StoreKey;
  readonly compromised: boolean;
  assertHeld(): void;
}

/**
 * The one interface through which Teamkit touches persisted state. Implementations: the
 * file store ({@link createFileStore}), an in-memory store ({@link createMemoryStore}),
 * and the NATS JetStream store (`createNatsStore` of `@teamkit/store-nats`). All pass the
 * store conformance suite (`@teamkit/test-harness/store-conformance`) unchanged.
 *
 * Errors are always `TeamkitError`s: `PATH_TRAVERSAL` (a bad key, or a planted symlink),
 * `ALREADY_EXISTS`, `REVISION_CONFLICT` (the value changed since it was read),
 * `DOCUMENT_NOT_FOUND`, `LOCK_TIMEOUT`, `LOCK_COMPROMISED`, `CORRUPT_DOCUMENT` (not a
 * regular file where a value should be: a FIFO, a device, a folder; or too large),
 * `INVALID_INPUT` (a bad argument) and `IO_ERROR` (ENOSPC, EROFS, EACCES, EIO..., naming
 * the key and what to do). A networked store adds `STORE_UNAVAILABLE` (the server did not
 * answer in time; the outcome is unknown, read again) and `PERMISSION_DENIED` (refused
 * credentials or rights). A write that fails leaves the old value in place.
 */
export interface TeamkitStore {
  /** `file`, `memory`, `nats`, ... */
  readonly kind: string;

  // ---- values with revisions (documents: state.json, tasks, the task watermark, team.json)

  /** The value and its revision; `undefined` when absent. Reads never write. */
  read(key: StoreKey): Promise<StoredValue | undefined>;
  /**
   * Reads several values, each exactly as `read` would (the newest revision at some moment
   * during the call, never a torn or superseded one), one outcome per key in the order
   * given. A key `read` would refuse (a bad key, a FIFO, a value over the size limit) gets
   * its error in its place, so one bad value does not hide the others. Not a snapshot
   * across keys. For listings: the file store checks each folder once per call instead of
   * once per key.
   */
  readMany(keys: readonly StoreKey[]): Promise<ReadOutcome[]>;
  /** Creates a value that must not exist yet (`ALREADY_EXISTS`); durable when it resolves. */
  create(key: StoreKey, text: string): Promise<StoreRevision>;
  /**
   * Replaces the value only if it is still at `revision` (`REVISION_CONFLICT` otherwise,
   * also for a revision that was never this value's; `DOCUMENT_NOT_FOUND` if the value is
   * gone). This is the fencing point: a writer that stalled (SIGSTOP, GC pause) after
   * reading can never overwrite a newer value. Durable when it resolves.
   */
  update(key: StoreKey, text: string, revision: StoreRevision): Promise<StoreRevision>;
  /**
   * Unconditional replace (or create), for values with one writer (prompts, presence,
   * config). It still counts as a change: a revision read before it no longer updates.
   */
  put(key: StoreKey, text: string): Promise<StoreRevision>;
  /** Removes a value; a missing value is fine. A revision read before it no longer updates. */
  remove(key: StoreKey): Promise<void>;
  /** Removes everything under a prefix (a run's folder at sweep); missing is fine. */
  removeTree(prefix: StoreKey): Promise<void>;
  /**
   * Child names under a prefix (`''` is the root), sorted; `[]` when absent. Names the
   * store keeps for itself are hidden; a name may still be listed for a moment after its
   * value was removed (read it to know).
   */
  list(prefix: StoreKey): Promise<string[]>;
  /** Kind, size and modification time; `undefined` when absent. */
  stat(key: StoreKey): Promise<StoreEntryInfo | undefined>;
  /**
   * Creates an empty marker if absent; true for exactly one of any number of concurrent
   * callers. Cheap and not necessarily durable (numbered slots such as the message budget).
   */
  claimMarker(key: StoreKey): Promise<boolean>;
  /**
   * Removes what crashed writers left behind under a prefix (`''` is the root) once it is
   * older than `olderThanMs`: staged temp files, half-removed trees. Returns how many.
   */
  removeStaleTemporaries(prefix: StoreKey, olderThanMs: number): Promise<number>;

  // ---- entries: immutable texts moving unread -> reserved -> processed (messages)

  /** Adds an entry in state `unread`; `ALREADY_EXISTS` if the id is in the collection in any state. */
  addEntry(
    collection: StoreKey,
    id: string,
    text: string,
    options?: AddEntryOptions,
  ): Promise<void>;
  /**
   * Moves entries to `to` from the first of `from` they are found in, atomically per entry,
   * under the collection's lock (`to` must not be one of `from`).
   */
  moveEntries(
    collection: StoreKey,
    ids: readonly string[],
    from: readonly EntryState[],
    to: EntryState,
    options?: MoveEntriesOptions,
  ): Promise<EntryMoveOutcome>;
  /** Entries in one state, sorted by id. */
  listEntries(collection: StoreKey, state: EntryState): Promise<EntryListing[]>;
  /** One entry's text in a state; `undefined` when it is not in that state. */
  readEntry(collection: StoreKey, id: string, state: EntryState): Promise<string | undefined>;
  /** The state an entry is in, or `undefined`. */
  entryState(collection: StoreKey, id: string): Promise<EntryState | undefined>;
  /**
   * Calls `onChange` with ids that may have changed state, or `'all'` on each timed
   * reconcile (a hint either way; re-read to know). Resolves to an async disposer.
   */
  watchEntries(
    collection: StoreKey,
    onChange: (ids: string[] | 'all') => void,
    options?: StoreWatchOptions,
  ): Promise<() => Promise<void>>;

  // ---- append-only logs (events.jsonl)

  /**
   * Appends one line (no newline inside; one is added) in one write; lines from concurrent
   * writers never interleave, and a line torn by an earlier crash is never continued.
   */
  append(key: StoreKey, line: string): Promise<void>;
  /** Lines after `cursor` (from the start without one). */
  readLog(key: StoreKey, cursor?: LogCursor, options?: ReadLogOptions): Promise<LogRead>;

  // ---- locks (multi-value operations that CAS alone cannot order: task id allocation
  //      with dependency edges, cycle checks)

  /**
   * Runs `fn` holding the lock named by `key` and releases it on every exit path. If the
   * lock was lost meanwhile the result is discarded and `LOCK_COMPROMISED` thrown (unless
   * `fn` threw first). Not re-entrant; a collection's entry operations take the lock of
   * the collection's key, so do not call them on it while holding that lock.
   */
  withLock<T>(key: StoreKey, fn: (lock: HeldLock) => Promise<T>, options?: LockOptions): Promise<T>;

  // ---- watching (dashboards, `team watch`)

  /**
   * Reports changes under a prefix (`''` is the root), in batches that never overlap,
   * backed by a timed full comparison so a missed event heals. Resolves to an async disposer.
   */
  watch(
    prefix: StoreKey,
    onChange: (changes: StoreChange[]) => void,
    options?: StoreWatchOptions,
  ): Promise<() => Promise<void>>;

  /** Stops every watch this store started and releases connections. */
  close(): Promise<void>;
}
