import { randomUUID } from 'node:crypto';
import { createRunContext, type RunContext, type RunContextOptions } from '../run-context/index.js';
import type { Message } from '../schema/index.js';
import { parseInput } from '../state/parse-input.js';
import {
  type AcknowledgeOutcome,
  acknowledgeMessages,
  commitMessages,
  type MoveOutcome,
  releaseMessages,
  reserveMessages,
} from './delivery-protocol.js';
import { createInboxStore } from './inbox-store.js';
import {
  InboxWatchOptionsSchema,
  MemberArgument,
  MessageIdsArgument,
  OnMessagesArgument,
  SendMessageInputSchema,
} from './mailbox-inputs.js';
import { type MailboxParts, stateForInbox } from './mailbox-parts.js';
import { createMessageBudget } from './message-budget.js';
import {
  isMessage,
  listUnreadMessages,
  readStoredMessage,
  type UnreadListing,
} from './read-inbox.js';
import { type ReclaimOutcome, reclaimStaleReservations } from './reclaim-reservations.js';
import { type SendMessageInput, type SendMessageResult, sendMessage } from './send-message.js';
import { type InboxWatchOptions, watchInboxWith } from './watch-inbox.js';

/** Options for {@link createMailbox}: where the run lives and the injectable seams. */
export interface MailboxOptions extends RunContextOptions {
  /** Message id generator; defaults to `crypto.randomUUID`. */
  newId?: () => string;
}

/** One run's mailbox. Every method re-reads the run state, so roster and policy changes apply at once. */
export interface Mailbox {
  /** Writes one durable copy per recipient; see docs/mailbox.md for every refusal. */
  sendMessage(input: SendMessageInput): Promise<SendMessageResult>;
  /** Unread messages of `member`, sorted by (timestamp, messageId). Reading never acknowledges. */
  listUnread(member: string): Promise<UnreadListing>;
  /** Hides unread messages from `listUnread` while a host delivers them. */
  reserve(
    member: string,
    messageIds: readonly string[],
  ): Promise<{ reserved: Message[]; missing: string[] }>;
  /** Marks reserved messages delivered (moves them to `processed/`). */
  commit(member: string, messageIds: readonly string[]): Promise<MoveOutcome>;
  /** Returns reserved messages to unread after a failed delivery. */
  release(member: string, messageIds: readonly string[]): Promise<MoveOutcome>;
  /** Moves unread or reserved messages to `processed/`; idempotent. */
  acknowledge(member: string, messageIds: readonly string[]): Promise<AcknowledgeOutcome>;
  /** Returns reservations older than `olderThanMs` to unread and removes old temp files. */
  reclaimStaleReservations(olderThanMs: number, member?: string): Promise<ReclaimOutcome>;
  /**
   * How many messages the run has stored: each copy counts (a broadcast to three members
   * counts three), the measure of `policy.bounds.maxMessagesPerRun`.
   */
  countMessagesSent(): Promise<number>;
  /** Calls `onMessages` with newly unread messages; resolves to a disposer. */
  watchInbox(
    member: string,
    onMessages: (messages: Message[]) => void | Promise<void>,
    options?: InboxWatchOptions,
  ): Promise<() => Promise<void>>;
}

/**
 * Creates the mailbox of one run (`runtime/<runId>/inboxes/`). Each message is its own
 * file; every state change is a rename inside the recipient's inbox, taken under that
 * inbox's short lock, so duplicates and backpressure are exact across processes.
 */
export function createMailbox(options: MailboxOptions): Mailbox {
  return mailboxOfRun(createRunContext(options), options.newId);
}

/** @internal The mailbox over an opened run (the run handle's `mailbox`). */
export function mailboxOfRun(run: RunContext, newId?: () => string): Mailbox {
  const inboxes = createInboxStore(run);
  const parts: MailboxParts = {
    run,
    inboxes,
    budget: createMessageBudget(inboxes.messageSlots),
    newId: newId ?? randomUUID,
  };
  const member = (value: unknown) => parseInput(MemberArgument, value, 'the member');
  const messageIds = (value: unknown) => parseInput(MessageIdsArgument, value, 'the message ids');
  // Each method checks the shape of its arguments first: callers may be agents' tools.
  const mailbox: Mailbox = {
    async sendMessage(input) {
      return sendMessage(parts, parseInput(SendMessageInputSchema, input, 'the message'));
    },
    async listUnread(name) {
      await stateForInbox(parts, member(name), false);
      return listUnreadMessages(inboxes, name);
    },
    async reserve(name, ids) {
      return reserveMessages(parts, member(name), messageIds(ids));
    },
    async commit(name, ids) {
      return commitMessages(parts, member(name), messageIds(ids));
    },
    async release(name, ids) {
      return releaseMessages(parts, member(name), messageIds(ids));
    },
    async acknowledge(name, ids) {
      return acknowledgeMessages(parts, member(name), messageIds(ids));
    },
    async reclaimStaleReservations(olderThanMs, name) {
      return reclaimStaleReservations(
        parts,
        olderThanMs,
        name === undefined ? undefined : member(name),
      );
    },
    async countMessagesSent() {
      await run.readState();
      return parts.budget.count();
    },
    async watchInbox(name, onMessages, watchOptions) {
      member(name);
      parseInput(OnMessagesArgument, onMessages, 'onMessages');
      const checkedOptions = parseInput(InboxWatchOptionsSchema, watchOptions, 'the watch options');
      await stateForInbox(parts, name, false);
      const reader = {
        listUnread: () => mailbox.listUnread(name),
        async readUnread(messageId: string) {
          const read = await readStoredMessage(inboxes, name, messageId, 'unread');
          return isMessage(read) ? read : undefined;
        },
      };
      return watchInboxWith(
        (onChange, onError) => inboxes.watchMessages(name, onChange, onError),
        reader,
        onMessages,
        checkedOptions,
      );
    },
  };
  return mailbox;
}
