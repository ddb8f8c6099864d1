import type { Message } from '../schema/index.js';
import { compareByArrival } from './inbox-layout.js';
import type { UnreadListing } from './read-inbox.js';

/** Tuning for {@link Mailbox.watchInbox}. */
export interface InboxWatchOptions {
  /** How often the inbox is listed regardless of file events (watchers lose events). Default 1 000 ms. */
  reconcileIntervalMs?: number;
  /** Receives watcher, listing and callback errors; they never escape to the process. Default: ignored. */
  onError?: (error: unknown) => void;
}

/** How {@link watchInboxWith} reads the inbox: all unread messages, or one by id. */
export interface InboxReader {
  /** Every unread message, sorted by (timestamp, messageId). */
  listUnread(): Promise<UnreadListing>;
  /** The unread message `messageId`, or `undefined` if it is not (or no longer) unread and valid. */
  readUnread(messageId: string): Promise<Message | undefined>;
}

/**
 * Subscribes to hints that messages may have become unread (ids, or `'all'`), with an
 * error handler; resolves to an unsubscribe function.
 */
export type InboxChangeSubscription = (
  onChange: (messageIds: string[] | 'all') => void,
  onError: (error: unknown) => void,
) => Promise<() => Promise<void>>;

/**
 * Reports each unread message once while it stays unread (again if it is released back
 * later). A change hint names the message that arrived, so only that message is read;
 * the whole inbox is listed at start and on a timer, which catches whatever the hints
 * missed. Calls to `onMessages` never overlap.
 */
export async function watchInboxWith(
  subscribe: InboxChangeSubscription,
  reader: InboxReader,
  onMessages: (messages: Message[]) => void | Promise<void>,
  options: InboxWatchOptions = {},
): Promise<() => Promise<void>> {
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // An error handler that throws must not take the process down either.
    }
  };
  const reported = new Set<string>();
  // Ids named by file events since the last pass, and whether a full listing is due.
  const arrived = new Set<string>();
  let listingDue = false;
  let closed = false;
  let running: Promise<void> | undefined;

  async function deliver(messages: Message[]): Promise<void> {
    const fresh = messages.filter((message) => !reported.has(message.messageId));
    if (fresh.length === 0 || closed) return;
    // Marked before the callback so an event arriving meanwhile does not report them
    // twice; unmarked if the callback fails, so the next pass offers them again.
    for (const message of fresh) reported.add(message.messageId);
    try {
      await onMessages(fresh);
    } catch (error) {
      for (const message of fresh) reported.delete(message.messageId);
      throw error;
    }
  }

  async function passOnce(): Promise<void> {
    if (listingDue) {
      listingDue = false;
      arrived.clear();
      const { messages } = await reader.listUnread();
      const current = new Set(messages.map((message) => message.messageId));
      for (const id of reported) if (!current.has(id)) reported.delete(id);
      await deliver(messages);
      return;
    }
    const ids = [...arrived].filter((id) => !reported.has(id));
    arrived.clear();
    const read = await Promise.all(ids.map((id) => reader.readUnread(id)));
    await deliver(read.filter((message) => message !== undefined).sort(compareByArrival));
  }

  function schedule(): void {
    if (closed || running !== undefined) return;
    running = (async () => {
      while (!closed && (listingDue || arrived.size > 0)) {
        try {
          await passOnce();
        } catch (error) {
          report(error);
        }
      }
    })().finally(() => {
      running = undefined;
    });
  }

  const listAll = () => {
    listingDue = true;
    schedule();
  };

  const unsubscribe = await subscribe((messageIds) => {
    if (messageIds === 'all') {
      listAll();
      return;
    }
    // An id this watcher already reported is that message leaving (reserved or
    // acknowledged); the next timed listing notices it anyway.
    const fresh = messageIds.filter((id) => !reported.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) arrived.add(id);
    schedule();
  }, report);
  const timer = setInterval(listAll, options.reconcileIntervalMs ?? 1_000);
  listAll();

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    await unsubscribe();
    await running;
  };
}
