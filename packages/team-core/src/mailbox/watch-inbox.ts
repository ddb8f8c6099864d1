import path from 'node:path';
import type { Message } from '../schema/index.js';
import type { UnreadListing } from './create-mailbox.js';

/** Tuning for {@link Mailbox.watchInbox}. */
export interface InboxWatchOptions {
  /** How often the inbox is listed regardless of file events (watchers lose events). Default 1 000 ms. */
  reconcileIntervalMs?: number;
  /** Receives watcher, listing and callback errors; they never escape to the process. Default: ignored. */
  onError?: (error: unknown) => void;
}

/**
 * Watches `inbox` with chokidar and lists it on every event and on a timer; reports each
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

  // Loaded on first use: most processes that send or claim never watch.
  const { watch } = await import('chokidar');
  const watcher = watch(inbox, {
    depth: 0,
    ignoreInitial: true,
    ignored: (entry: string) => {
      if (path.resolve(entry) === path.resolve(inbox)) return false;
      const name = path.basename(entry);
      return name.startsWith('.') || name === 'processed';
    },
  });
  watcher.on('add', reconcile);
  watcher.on('change', reconcile);
  watcher.on('error', report);
  await new Promise<void>((resolve) => {
    watcher.once('ready', () => resolve());
  });
  const timer = setInterval(reconcile, options.reconcileIntervalMs ?? 1_000);
  reconcile();

  return async () => {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    await watcher.close().catch(report);
    await running;
  };
}
