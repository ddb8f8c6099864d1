import { watch } from 'node:fs';
import type { Message } from '../schema/index.js';
import type { UnreadListing } from './create-mailbox.js';
import { unreadIdOf } from './inbox-layout.js';

/** Tuning for {@link Mailbox.watchInbox}. */
export interface InboxWatchOptions {
  /** How often the inbox is listed regardless of file events (watchers lose events). Default 1 000 ms. */
  reconcileIntervalMs?: number;
  /** Receives watcher, listing and callback errors; they never escape to the process. Default: ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Watches `inbox` with `fs.watch` and lists it on every event and on a timer; reports each
 * unread message once while it stays unread (again if it is released back later).
 */
export async function watchInboxWith(
  inbox: string,
  listUnread: () => Promise<UnreadListing>,
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
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;

  async function reconcileOnce(): Promise<void> {
    const { messages } = await listUnread();
    const current = new Set(messages.map((message) => message.messageId));
    for (const id of reported) if (!current.has(id)) reported.delete(id);
    const fresh = messages.filter((message) => !reported.has(message.messageId));
    if (fresh.length === 0 || closed) return;
    await onMessages(fresh);
    for (const message of fresh) reported.add(message.messageId);
  }

  function reconcile(): void {
    if (closed) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await reconcileOnce();
        } catch (error) {
          report(error);
        }
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
  }

  // One folder, no recursion: Node's own watcher (inotify on Linux) is enough, and the
  // reconcile timer below catches whatever it misses.
  const watcher = watch(inbox, { persistent: true }, (_event, name) => {
    if (name === null || name.startsWith('.') || name === 'processed') return;
    const id = unreadIdOf(name);
    // A name this watcher already reported is that message leaving (reserved or
    // acknowledged); the next timed reconcile notices it anyway.
    if (id !== undefined && reported.has(id)) return;
    reconcile();
  });
  watcher.on('error', report);
  const timer = setInterval(reconcile, options.reconcileIntervalMs ?? 1_000);
  reconcile();

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    watcher.close();
    await running;
  };
}
