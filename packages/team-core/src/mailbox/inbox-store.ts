import { watch } from 'node:fs';
import path from 'node:path';
import { TeamkitError } from '../errors/index.js';
import type { RunContext } from '../run-context/index.js';
import { NAME_PATTERN } from '../schema/index.js';
import { withIoErrors } from '../state/io-error.js';
import {
  createMarkerFile,
  type FileLock,
  fsyncDirectory,
  stageFile,
  touchFile,
} from '../storage/index.js';
import {
  messageFile,
  messageFiles,
  reservedIdOf,
  TEMP_PREFIX,
  unreadIdOf,
} from './inbox-layout.js';
import { createPendingLedger } from './pending-ledger.js';

// Every access of the mailbox to persisted state goes through this file. Its functions
// have the shape of the storage seam's entry operations (add, move, list, read, watch),
// so moving the mailbox onto another store changes this file and little else.

/** The three states a stored message moves between, one rename at a time. */
export type MessageState = 'unread' | 'reserved' | 'processed';

/** What an admission check sees: the inbox's unread + reserved bytes, exact under its lock. */
export interface PendingTotals {
  bytes: number;
}

/** Which ids a move moved, and which it found in none of the states it moved from. */
export interface MessageMoveOutcome {
  moved: string[];
  missing: string[];
}

/** Options of {@link InboxStore.moveMessages}. */
export interface MessageMoveOptions {
  /** Starts the reservation clock at this time (epoch ms) when moving to `reserved`. */
  at?: number;
  /** Moves a message only if its state last changed at or before this time (epoch ms). */
  changedAtOrBefore?: number;
}

/** A reserved message and when it was reserved (epoch ms). */
export interface Reservation {
  id: string;
  changedAt: number;
}

/** The numbered slots the run's message budget takes, one per stored copy. */
export interface MessageSlots {
  isTaken(slot: number): Promise<boolean>;
  /** Takes the slot; true for exactly one of any number of concurrent takers. */
  claim(slot: number): Promise<boolean>;
}

/** The run's inboxes as the mailbox sees them: entries moving between three states. */
export interface InboxStore {
  /** The run whose inboxes these are. */
  readonly runId: string;
  /** Where a message of `member` in `state` is stored, for reports. */
  whereIs(member: string, messageId: string, state: MessageState): string;
  /**
   * Adds `text` as the unread message `messageId` of `member`. Under the inbox's lock it
   * refuses an id present in any state (`ALREADY_EXISTS`), then runs `admit` with the
   * pending totals (it throws to refuse), then makes the message visible; durable when
   * it resolves. A refusal writes nothing.
   */
  addMessage(
    member: string,
    messageId: string,
    text: string,
    admit: (pending: PendingTotals) => void | Promise<void>,
  ): Promise<void>;
  /** Moves messages to `to` from the first of `from` they are in, under the inbox's lock. */
  moveMessages(
    member: string,
    messageIds: readonly string[],
    from: readonly MessageState[],
    to: MessageState,
    options?: MessageMoveOptions,
  ): Promise<MessageMoveOutcome>;
  /** Ids of `member`'s messages in `state` (unread or reserved), sorted by id. */
  listMessageIds(member: string, state: 'unread' | 'reserved'): Promise<string[]>;
  /** `member`'s reserved messages with the time each was reserved. */
  listReservations(member: string): Promise<Reservation[]>;
  /** The text of one message in `state` and where it is; `undefined` when it is not in that state. */
  readMessage(
    member: string,
    messageId: string,
    state: MessageState,
  ): Promise<{ text: string; where: string } | undefined>;
  /** The state `member`'s message is in, or `undefined` when the inbox does not hold it. */
  messageState(member: string, messageId: string): Promise<MessageState | undefined>;
  /** Names of the members that have an inbox folder. */
  listInboxOwners(): Promise<string[]>;
  /** Removes what crashed senders left in `member`'s inbox, older than `olderThanMs`. */
  removeStaleTemporaries(member: string, olderThanMs: number): Promise<number>;
  /**
   * Calls `onChange` with ids of `member`'s messages that may have become unread, or
   * `'all'` when anything may have changed; a hint only, re-read to know.
   */
  watchMessages(
    member: string,
    onChange: (messageIds: string[] | 'all') => void,
    onError: (error: unknown) => void,
  ): Promise<() => Promise<void>>;
  /** The slots of the run's message budget. */
  readonly messageSlots: MessageSlots;
}

/** The {@link InboxStore} of one run on the file store (`runtime/<runId>/inboxes/`). */
export function createInboxStore(run: RunContext): InboxStore {
  const { paths, store } = run;
  const ledger = createPendingLedger(store);
  const slotFolder = path.join(paths.inboxes, '.sent');

  // A run has a handful of members; checking a name into a path once per member keeps a
  // listing from paying for it once per message.
  const inboxPaths = new Map<string, string>();
  function inboxOf(member: string): string {
    let inbox = inboxPaths.get(member);
    if (inbox === undefined) {
      inbox = paths.inbox(member);
      inboxPaths.set(member, inbox);
    }
    return inbox;
  }

  const withInboxLock = <T>(member: string, fn: (lock: FileLock) => Promise<T>) =>
    store.withLock(
      inboxOf(member),
      async (lock) => {
        const result = await fn(lock);
        lock.assertHeld();
        return result;
      },
      run.lock,
    );

  const exists = async (file: string) => (await store.stat(file)) !== undefined;

  // Messages are about to move: other processes' views of the inbox must not be trusted,
  // and this one's is not kept up to date either.
  async function changingInbox(inbox: string): Promise<void> {
    await ledger.changing(inbox);
    ledger.forget(inbox);
  }

  async function listNames(member: string): Promise<string[]> {
    return store.list(inboxOf(member));
  }

  const inboxes: InboxStore = {
    runId: paths.runId,
    whereIs(member, messageId, state) {
      return messageFile(inboxOf(member), messageId, state);
    },

    addMessage(member, messageId, text, admit) {
      const inbox = inboxOf(member);
      const bytes = Buffer.byteLength(text);
      return withIoErrors(`store message ${messageId} in`, inbox, async () => {
        const staged = await stageFile(inbox, text);
        try {
          await withInboxLock(member, async () => {
            const files = messageFiles(inbox, messageId);
            // Every move of a message happens under this lock, so these checks are exact.
            for (const file of [files.unread, files.reserved, files.processed]) {
              if (await exists(file)) {
                throw new TeamkitError(
                  'ALREADY_EXISTS',
                  `Message ${messageId} already exists in ${member}'s inbox.`,
                  { details: { path: file } },
                );
              }
            }
            await admit({ bytes: await ledger.pendingBytes(inbox) });
            const token = await ledger.changing(inbox);
            try {
              await staged.publish(files.unread);
            } catch (error) {
              ledger.forget(inbox);
              throw error;
            }
            ledger.added(inbox, token, path.basename(files.unread), bytes);
          });
        } finally {
          await staged.discard();
        }
        await fsyncDirectory(inbox);
      });
    },

    moveMessages(member, messageIds, from, to, options = {}) {
      const inbox = inboxOf(member);
      const outcome: MessageMoveOutcome = { moved: [], missing: [] };
      if (messageIds.length === 0) return Promise.resolve(outcome);
      return withIoErrors('move messages in', inbox, async () => {
        if (to === 'processed') await store.ensureDir(path.join(inbox, 'processed'));
        await withInboxLock(member, async () => {
          await changingInbox(inbox);
          for (const id of new Set(messageIds)) {
            const files = messageFiles(inbox, id);
            let moved = false;
            for (const state of from) {
              if (options.changedAtOrBefore !== undefined) {
                const info = await store.stat(files[state]);
                if (info === undefined || info.mtimeMs > options.changedAtOrBefore) continue;
              }
              if (await store.move(files[state], files[to])) {
                moved = true;
                break;
              }
            }
            if (!moved) {
              outcome.missing.push(id);
              continue;
            }
            outcome.moved.push(id);
            if (to === 'reserved' && options.at !== undefined) {
              await touchFile(files.reserved, options.at);
            }
          }
        });
        await fsyncDirectory(inbox);
        if (to === 'processed') await fsyncDirectory(path.join(inbox, 'processed'));
        return outcome;
      });
    },

    listMessageIds(member, state) {
      const idOf = state === 'unread' ? unreadIdOf : reservedIdOf;
      return withIoErrors('list', inboxOf(member), async () => {
        const ids: string[] = [];
        for (const name of await listNames(member)) {
          const id = idOf(name);
          if (id !== undefined) ids.push(id);
        }
        return ids;
      });
    },

    listReservations(member) {
      const inbox = inboxOf(member);
      return withIoErrors('list', inboxOf(member), async () => {
        const reservations: Reservation[] = [];
        for (const name of await listNames(member)) {
          const id = reservedIdOf(name);
          if (id === undefined) continue;
          const info = await store.stat(path.join(inbox, name));
          if (info !== undefined) reservations.push({ id, changedAt: info.mtimeMs });
        }
        return reservations;
      });
    },

    readMessage(member, messageId, state) {
      const where = inboxes.whereIs(member, messageId, state);
      return withIoErrors('read', where, async () => {
        const text = await store.readText(where);
        return text === undefined ? undefined : { text, where };
      });
    },

    messageState(member, messageId) {
      const files = messageFiles(inboxOf(member), messageId);
      return withIoErrors('read', inboxOf(member), async () => {
        for (const state of ['unread', 'reserved', 'processed'] as const) {
          if (await exists(files[state])) return state;
        }
        return undefined;
      });
    },

    listInboxOwners() {
      return withIoErrors('list', paths.inboxes, async () =>
        (await store.list(paths.inboxes)).filter((name) => NAME_PATTERN.test(name)),
      );
    },

    removeStaleTemporaries(member, olderThanMs) {
      const inbox = inboxOf(member);
      // Temp files get their mtime from the OS clock, not the run's injected one.
      const cutoff = Date.now() - olderThanMs;
      return withIoErrors('clean', inbox, async () => {
        let removed = 0;
        for (const name of await listNames(member)) {
          if (!name.startsWith(TEMP_PREFIX)) continue;
          const file = path.join(inbox, name);
          const info = await store.stat(file);
          if (info === undefined || info.mtimeMs > cutoff) continue;
          await store.remove(file);
          removed += 1;
        }
        return removed;
      });
    },

    watchMessages(member, onChange, onError) {
      const inbox = inboxOf(member);
      return withIoErrors('watch', inbox, async () => {
        await store.ensureDir(inbox);
        // One folder, no recursion: Node's own watcher (inotify on Linux) is enough; the
        // caller's timed listing catches whatever it misses.
        const watcher = watch(inbox, { persistent: true }, (_event, name) => {
          if (name === null) {
            onChange('all');
            return;
          }
          const id = unreadIdOf(name);
          if (id !== undefined) onChange([id]);
        });
        watcher.on('error', onError);
        return async () => {
          watcher.close();
        };
      });
    },

    messageSlots: {
      isTaken: (slot) =>
        withIoErrors('count the messages in', slotFolder, () =>
          exists(path.join(slotFolder, String(slot))),
        ),
      claim: (slot) =>
        withIoErrors('count the messages in', slotFolder, () =>
          createMarkerFile(path.join(slotFolder, String(slot))),
        ),
    },
  };
  return inboxes;
}
