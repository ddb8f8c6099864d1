import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isTeamkitError, TeamkitError, type TeamkitErrorCode } from '../errors/index.js';
import {
  assertRunWritable,
  createRunContext,
  isActiveMember,
  type RunContextOptions,
  requireMember,
} from '../run-context/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import {
  type Message,
  type MessageKind,
  type MessageReference,
  MessageSchema,
  NAME_PATTERN,
  type RuntimeState,
} from '../schema/index.js';
import {
  appendRunEvent,
  type DocumentProblem,
  fsyncDirectory,
  parseDocument,
  serializeDocument,
  stageFile,
  toDocumentProblem,
  touchFile,
} from '../storage/index.js';
import {
  assertMessageIds,
  compareByArrival,
  messageFiles,
  reservedIdOf,
  TEMP_PREFIX,
  unreadIdOf,
} from './inbox-layout.js';
import { createMessageBudget } from './message-budget.js';
import { createPendingLedger } from './pending-ledger.js';
import { type InboxWatchOptions, watchInboxWith } from './watch-inbox.js';

/** Options for {@link createMailbox}: where the run lives and the injectable seams. */
export interface MailboxOptions extends RunContextOptions {
  /** Message id generator; defaults to `crypto.randomUUID`. */
  newId?: () => string;
}

/** What a member sends. `from` is the authenticated caller the host passes in. */
export interface SendMessageInput {
  from: string;
  /** A member name, or `"*"` for a broadcast to every other active member. */
  to: string;
  kind?: MessageKind;
  body: string;
  summary?: string;
  references?: MessageReference[];
  correlationId?: string;
  color?: string;
  /** A caller-chosen id (lowercase UUID) so a retried send is refused as a duplicate. */
  messageId?: string;
}

/** A recipient a broadcast copy could not be written to, and why. */
export interface RecipientRefusal {
  member: string;
  code: TeamkitErrorCode;
  message: string;
}

/** The per-recipient outcome of a send. */
export interface SendMessageResult {
  messageId: string;
  /** Recipients whose copy is durably in their inbox. */
  delivered: string[];
  /** Broadcast recipients whose copy was refused (a direct send throws instead). */
  refused: RecipientRefusal[];
}

/** Unread messages, oldest first, and any unreadable files left in place. */
export interface UnreadListing {
  messages: Message[];
  problems: DocumentProblem[];
}

/** Which ids a delivery-protocol call moved and which it did not find in the expected place. */
export interface MoveOutcome {
  moved: string[];
  missing: string[];
}

/** The outcome of {@link Mailbox.acknowledge}. */
export interface AcknowledgeOutcome {
  /** Moved to `processed/` by this call. */
  acknowledged: string[];
  /** Already in `processed/` (acknowledging twice is fine). */
  alreadyProcessed: string[];
  /** Not in this inbox at all. */
  missing: string[];
}

/** The outcome of {@link Mailbox.reclaimStaleReservations}. */
export interface ReclaimOutcome {
  reclaimed: { member: string; messageId: string }[];
  /** Leftover `.tmp-*` files of crashed senders that were removed. */
  removedTempFiles: number;
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
  /** Calls `onMessages` with newly unread messages; resolves to a disposer. */
  watchInbox(
    member: string,
    onMessages: (messages: Message[]) => void | Promise<void>,
    options?: InboxWatchOptions,
  ): Promise<() => Promise<void>>;
}

const BROADCAST = '*';

/**
 * Creates the mailbox of one run (`runtime/<runId>/inboxes/`). Each message is its own
 * file; every state change is a rename inside the recipient's inbox, taken under that
 * inbox's short lock, so duplicates and backpressure are exact across processes.
 */
export function createMailbox(options: MailboxOptions): Mailbox {
  const context = createRunContext(options);
  const { paths, store } = context;
  const newId = options.newId ?? randomUUID;
  const budget = createMessageBudget(store, path.join(paths.inboxes, '.sent'));
  const ledger = createPendingLedger(store);

  const withInboxLock = <T>(member: string, fn: () => Promise<T>) =>
    store.withLock(
      paths.inbox(member),
      async (lock) => {
        const result = await fn();
        lock.assertHeld();
        return result;
      },
      context.lock,
    );

  async function writableState(): Promise<RuntimeState> {
    const state = await context.readState();
    assertRunWritable(state);
    return state;
  }

  async function ownInbox(member: string, write: boolean): Promise<string> {
    const state = write ? await writableState() : await context.readState();
    requireMember(state, member);
    return paths.inbox(member);
  }

  async function exists(file: string): Promise<boolean> {
    return (await store.stat(file)) !== undefined;
  }

  async function storeCopy(
    state: RuntimeState,
    message: Message,
    recipient: string,
  ): Promise<void> {
    const inbox = paths.inbox(recipient);
    const text = serializeDocument(message, MessageSchema, `message ${message.messageId}`);
    const bytes = Buffer.byteLength(text);
    const staged = await stageFile(inbox, text);
    try {
      await withInboxLock(recipient, async () => {
        const files = messageFiles(inbox, message.messageId);
        // Every move of a message happens under this lock, so these checks are exact.
        for (const file of [files.unread, files.reserved, files.processed]) {
          if (await exists(file)) {
            throw new TeamkitError(
              'DUPLICATE_MESSAGE_ID',
              `Message ${message.messageId} already exists in ${recipient}'s inbox; nothing was written. Use a new id.`,
              { details: { messageId: message.messageId, recipient } },
            );
          }
        }
        const cap = state.policy.unreadMaxBytes;
        const unread = await ledger.pendingBytes(inbox);
        if (unread + bytes > cap) {
          throw new TeamkitError(
            'RECIPIENT_BACKPRESSURE',
            `${recipient} has ${unread} unread bytes; this ${bytes}-byte message would pass the unread cap of ${cap} bytes. Wait until ${recipient} reads its mail.`,
            {
              details: { recipient, unreadBytes: unread, messageBytes: bytes, unreadMaxBytes: cap },
            },
          );
        }
        const max = state.policy.bounds.maxMessagesPerRun;
        if ((await budget.take(max)) === undefined) {
          throw new TeamkitError(
            'BOUND_EXCEEDED',
            `Run ${state.runId} reached its bound of ${max} messages (policy.bounds.maxMessagesPerRun).`,
            { details: { bound: 'maxMessagesPerRun', limit: max } },
          );
        }
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
  }

  async function moveAll(
    member: string,
    ids: readonly string[],
    from: 'unread' | 'reserved',
    to: 'unread' | 'reserved' | 'processed',
  ): Promise<MoveOutcome> {
    assertMessageIds(ids);
    const inbox = await ownInbox(member, true);
    const outcome: MoveOutcome = { moved: [], missing: [] };
    if (ids.length === 0) return outcome;
    if (to === 'processed') await store.ensureDir(path.join(inbox, 'processed'));
    await withInboxLock(member, async () => {
      await changingInbox(inbox);
      for (const id of new Set(ids)) {
        const files = messageFiles(inbox, id);
        if (await store.move(files[from], files[to])) {
          outcome.moved.push(id);
          if (to === 'reserved') await touchFile(files.reserved, context.now());
        } else {
          outcome.missing.push(id);
        }
      }
    });
    await syncInbox(inbox, to === 'processed');
    return outcome;
  }

  // Messages are about to move: other processes' views of the inbox must not be trusted,
  // and this one's is not kept up to date either.
  async function changingInbox(inbox: string): Promise<void> {
    await ledger.changing(inbox);
    ledger.forget(inbox);
  }

  async function syncInbox(inbox: string, processedToo: boolean): Promise<void> {
    await fsyncDirectory(inbox);
    if (processedToo) await fsyncDirectory(path.join(inbox, 'processed'));
  }

  async function logEvent(
    actor: string,
    type: string,
    ids: string[],
    data?: Record<string, unknown>,
  ) {
    await appendRunEvent(
      store,
      paths.events,
      { runId: paths.runId, actor, type, ids, ...(data === undefined ? {} : { data }) },
      context.now,
    );
  }

  async function readMessage(file: string): Promise<Message | DocumentProblem | undefined> {
    const text = await store.readText(file);
    if (text === undefined) return undefined;
    try {
      return parseDocument(text, MessageSchema, file);
    } catch (error) {
      return toDocumentProblem(error, file);
    }
  }

  const mailbox: Mailbox = {
    async sendMessage(input) {
      const state = await writableState();
      const sender = requireMember(state, input.from);
      const messageId = (input.messageId ?? newId()).toLowerCase();
      const isBroadcast = input.to === BROADCAST;
      const candidate = {
        version: 1 as const,
        messageId,
        runId: paths.runId,
        from: input.from,
        to: isBroadcast ? input.from : input.to,
        ...(isBroadcast ? { broadcast: true } : {}),
        kind: input.kind ?? 'message',
        body: input.body,
        summary: input.summary,
        references: input.references,
        timestamp: context.now(),
        correlationId: input.correlationId,
        color: input.color,
      };
      const parsed = MessageSchema.safeParse(candidate);
      if (!parsed.success) {
        const issues = describeIssues(parsed.error, Number.POSITIVE_INFINITY);
        throw new TeamkitError('INVALID_INPUT', `Refused message: ${issues.join('; ')}.`, {
          details: { issues },
        });
      }
      assertMessageIds([messageId]);
      const bodyBytes = Buffer.byteLength(input.body);
      if (bodyBytes > state.policy.payloadMaxBytes) {
        throw new TeamkitError(
          'PAYLOAD_TOO_LARGE',
          `The message body is ${bodyBytes} bytes; the cap is ${state.policy.payloadMaxBytes} bytes (policy.payloadMaxBytes). Send a summary and reference a file instead.`,
          { details: { bytes: bodyBytes, payloadMaxBytes: state.policy.payloadMaxBytes } },
        );
      }

      let recipients: string[];
      if (isBroadcast) {
        if (state.policy.broadcast !== 'everyone' && !sender.isLead) {
          throw new TeamkitError(
            'BROADCAST_NOT_PERMITTED',
            `${input.from} may not broadcast: the team policy allows broadcast to the lead only. Send to a member by name.`,
            { details: { from: input.from, rule: state.policy.broadcast } },
          );
        }
        recipients = state.members
          .filter((member) => member.name !== input.from && isActiveMember(member))
          .map((member) => member.name);
      } else {
        const valid = state.members.filter((m) => m.status !== 'terminated').map((m) => m.name);
        if (!valid.includes(input.to)) {
          throw new TeamkitError(
            'UNKNOWN_RECIPIENT',
            `No member ${JSON.stringify(input.to)} can receive messages in run ${paths.runId}; valid recipients: ${valid.join(', ')}.`,
            { details: { recipient: input.to, validRecipients: valid } },
          );
        }
        recipients = [input.to];
      }

      const result: SendMessageResult = { messageId, delivered: [], refused: [] };
      for (const recipient of recipients) {
        const copy: Message = { ...parsed.data, to: recipient };
        try {
          await storeCopy(state, copy, recipient);
          result.delivered.push(recipient);
        } catch (error) {
          if (!isBroadcast || !isTeamkitError(error)) throw error;
          result.refused.push({ member: recipient, code: error.code, message: error.message });
        }
      }
      if (result.delivered.length > 0) {
        await logEvent(input.from, 'message.sent', [messageId], {
          to: input.to,
          kind: candidate.kind,
          delivered: result.delivered,
          ...(result.refused.length > 0
            ? { refused: result.refused.map(({ member, code }) => ({ member, code })) }
            : {}),
        });
      }
      return result;
    },

    async listUnread(member) {
      const inbox = await ownInbox(member, false);
      const listing: UnreadListing = { messages: [], problems: [] };
      for (const name of await store.list(inbox)) {
        if (unreadIdOf(name) === undefined) continue;
        const read = await readMessage(path.join(inbox, name));
        if (read === undefined) continue;
        if ('messageId' in read) listing.messages.push(read);
        else listing.problems.push(read);
      }
      listing.messages.sort(compareByArrival);
      return listing;
    },

    async reserve(member, messageIds) {
      const outcome = await moveAll(member, messageIds, 'unread', 'reserved');
      const inbox = paths.inbox(member);
      const reserved: Message[] = [];
      const missing = [...outcome.missing];
      for (const id of outcome.moved) {
        const read = await readMessage(messageFiles(inbox, id).reserved);
        if (read !== undefined && 'messageId' in read) reserved.push(read);
        else missing.push(id);
      }
      return { reserved, missing };
    },

    async commit(member, messageIds) {
      const outcome = await moveAll(member, messageIds, 'reserved', 'processed');
      if (outcome.moved.length > 0) {
        await logEvent(member, 'message.acknowledged', outcome.moved, { via: 'commit' });
      }
      return outcome;
    },

    release(member, messageIds) {
      return moveAll(member, messageIds, 'reserved', 'unread');
    },

    async acknowledge(member, messageIds) {
      assertMessageIds(messageIds);
      const inbox = await ownInbox(member, true);
      const outcome: AcknowledgeOutcome = { acknowledged: [], alreadyProcessed: [], missing: [] };
      if (messageIds.length === 0) return outcome;
      await store.ensureDir(path.join(inbox, 'processed'));
      await withInboxLock(member, async () => {
        await changingInbox(inbox);
        for (const id of new Set(messageIds)) {
          const files = messageFiles(inbox, id);
          if (
            (await store.move(files.unread, files.processed)) ||
            (await store.move(files.reserved, files.processed))
          ) {
            outcome.acknowledged.push(id);
          } else if (await exists(files.processed)) {
            outcome.alreadyProcessed.push(id);
          } else {
            outcome.missing.push(id);
          }
        }
      });
      await syncInbox(inbox, true);
      if (outcome.acknowledged.length > 0) {
        await logEvent(member, 'message.acknowledged', outcome.acknowledged);
      }
      return outcome;
    },

    async reclaimStaleReservations(olderThanMs, member) {
      if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
        throw new TeamkitError(
          'INVALID_INPUT',
          `olderThanMs must be a non-negative number of milliseconds.`,
          {
            details: { olderThanMs },
          },
        );
      }
      const state = await writableState();
      if (member !== undefined) requireMember(state, member);
      const members =
        member !== undefined
          ? [member]
          : (await store.list(paths.inboxes)).filter((name) => NAME_PATTERN.test(name));
      const cutoff = context.now() - olderThanMs;
      // Temp files get their mtime from the OS clock; reservations from the injected one.
      const tempCutoff = Date.now() - olderThanMs;
      const outcome: ReclaimOutcome = { reclaimed: [], removedTempFiles: 0 };
      for (const name of members) {
        const inbox = paths.inbox(name);
        const entries = await store.list(inbox);
        const stale: string[] = [];
        for (const entry of entries) {
          const info = await store.stat(path.join(inbox, entry));
          if (info === undefined) continue;
          const id = reservedIdOf(entry);
          if (id !== undefined && info.mtimeMs <= cutoff) stale.push(id);
          else if (entry.startsWith(TEMP_PREFIX) && info.mtimeMs <= tempCutoff) {
            await store.remove(path.join(inbox, entry));
            outcome.removedTempFiles += 1;
          }
        }
        if (stale.length === 0) continue;
        await withInboxLock(name, async () => {
          await changingInbox(inbox);
          for (const id of stale) {
            const files = messageFiles(inbox, id);
            const info = await store.stat(files.reserved);
            if (info === undefined || info.mtimeMs > cutoff) continue;
            if (await store.move(files.reserved, files.unread)) {
              outcome.reclaimed.push({ member: name, messageId: id });
            }
          }
        });
        await fsyncDirectory(inbox);
      }
      if (outcome.reclaimed.length > 0) {
        await logEvent(
          'teamkit',
          'message.reclaimed',
          outcome.reclaimed.map((r) => r.messageId),
          {
            members: [...new Set(outcome.reclaimed.map((r) => r.member))],
          },
        );
      }
      return outcome;
    },

    async watchInbox(member, onMessages, watchOptions) {
      const inbox = await ownInbox(member, false);
      await store.ensureDir(inbox);
      const reader = {
        listUnread: () => mailbox.listUnread(member),
        async readUnread(messageId: string) {
          const read = await readMessage(messageFiles(inbox, messageId).unread);
          return read !== undefined && 'messageId' in read ? read : undefined;
        },
      };
      return watchInboxWith(inbox, reader, onMessages, watchOptions);
    },
  };
  return mailbox;
}
