import path from 'node:path';
import type { RunContext } from '../run-context/index.js';
import { NAME_PATTERN } from '../schema/index.js';
import type { EntryState } from '../storage/teamkit-store.js';

// Every access of the mailbox to persisted state goes through this file: an inbox is an
// entry collection of the store, messages are its entries.

/** The three states a stored message moves between, one move at a time. */
export type MessageState = EntryState;

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

/** Where message `id` of an inbox is in `state`, as the file store lays it out. */
function entryPlace(inbox: string, id: string, state: MessageState): string {
  if (state === 'unread') return path.posix.join(inbox, `${id}.json`);
  if (state === 'reserved') return path.posix.join(inbox, `.delivering-${id}.json`);
  return path.posix.join(inbox, 'processed', `${id}.json`);
}

// Hints come from the store's own events; the mailbox lists each inbox on its own timer,
// so the store's timed comparison only needs to run rarely.
const STORE_RECONCILE_MS = 60_000;

/** The {@link InboxStore} of one run (`runtime/<runId>/inboxes/`). */
export function createInboxStore(run: RunContext): InboxStore {
  const { keys, store } = run;

  // A run has a handful of members; checking a name into a key once per member keeps a
  // listing from paying for it once per message.
  const inboxKeys = new Map<string, string>();
  function inboxOf(member: string): string {
    let inbox = inboxKeys.get(member);
    if (inbox === undefined) {
      inbox = keys.inbox(member);
      inboxKeys.set(member, inbox);
    }
    return inbox;
  }

  const inboxes: InboxStore = {
    runId: keys.runId,
    whereIs(member, messageId, state) {
      return entryPlace(inboxOf(member), messageId, state);
    },

    addMessage(member, messageId, text, admit) {
      return store.addEntry(inboxOf(member), messageId, text, { admit, lock: run.lock });
    },

    moveMessages(member, messageIds, from, to, options = {}) {
      return store.moveEntries(inboxOf(member), messageIds, from, to, {
        lock: run.lock,
        ...options,
      });
    },

    async listMessageIds(member, state) {
      return (await store.listEntries(inboxOf(member), state)).map((entry) => entry.id);
    },

    async listReservations(member) {
      return (await store.listEntries(inboxOf(member), 'reserved')).map(({ id, changedAt }) => ({
        id,
        changedAt,
      }));
    },

    async readMessage(member, messageId, state) {
      const text = await store.readEntry(inboxOf(member), messageId, state);
      return text === undefined
        ? undefined
        : { text, where: inboxes.whereIs(member, messageId, state) };
    },

    messageState(member, messageId) {
      return store.entryState(inboxOf(member), messageId);
    },

    async listInboxOwners() {
      return (await store.list(keys.inboxes)).filter((name) => NAME_PATTERN.test(name));
    },

    removeStaleTemporaries(member, olderThanMs) {
      return store.removeStaleTemporaries(inboxOf(member), olderThanMs);
    },

    watchMessages(member, onChange, onError) {
      return store.watchEntries(inboxOf(member), onChange, {
        onError,
        reconcileIntervalMs: STORE_RECONCILE_MS,
      });
    },

    messageSlots: {
      isTaken: async (slot) => (await store.stat(keys.sentSlot(slot))) !== undefined,
      claim: (slot) => store.claimMarker(keys.sentSlot(slot)),
    },
  };
  return inboxes;
}
