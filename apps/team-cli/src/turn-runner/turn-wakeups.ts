import type { Message, RunHandle } from '@teamkit/team-core';

/** Options of {@link watchTurnWakeups}. */
export interface TurnWakeupOptions {
  /**
   * How often the runner looks again whatever the watches said, and how often each watch
   * compares in full (watchers lose events).
   */
  reconcileMs: number;
  /** Wakes the runner for good once aborted. */
  signal?: AbortSignal;
  /** Watch errors; they never escape to the process. */
  onError: (error: unknown) => void;
}

/** What a waiting turn runner waits on, and the mail its inbox watch has seen. */
export interface TurnWakeups {
  /**
   * Resolves at once when something happened since the last call (the first call always
   * resolves at once), else at the next wake-up: new mail, a change of the run state,
   * the abort, or the periodic reconcile.
   */
  next(): Promise<void>;
  /** The unread messages the inbox watch reported and the runner has not taken, oldest first. */
  mail(): Message[];
  /** Adds messages the runner listed itself (its first turn lists the whole inbox). */
  add(messages: readonly Message[]): void;
  /** Forgets messages the runner reserved, or found already gone. */
  forget(messageIds: Iterable<string>): void;
  /** Ends both watches and the timer. */
  close(): Promise<void>;
}

const byArrival = (a: Message, b: Message) =>
  a.timestamp - b.timestamp || (a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0);

/**
 * Watches what a turn-based member waits for: its inbox (`watchInbox`, which reports each
 * unread message once) and the run's state document (the store's watch on the run,
 * filtered to `state.json`: the run starting or stopping, the member's status, the
 * parallel bound freeing). A timer every `reconcileMs` backs both, so a lost event only
 * delays the runner. A wake-up that comes while the runner is busy is kept for its next
 * wait, so none is lost.
 */
export async function watchTurnWakeups(
  handle: RunHandle,
  member: string,
  options: TurnWakeupOptions,
): Promise<TurnWakeups> {
  const { reconcileMs, signal, onError } = options;
  const unread = new Map<string, Message>();
  let due = true;
  let wake: (() => void) | undefined;
  const poke = () => {
    due = true;
    wake?.();
  };
  const add = (messages: readonly Message[]) => {
    for (const message of messages) unread.set(message.messageId, message);
  };
  const stateKey = handle.keys.state;
  const stopState = await handle.store.watch(
    handle.keys.root,
    (changes) => {
      const touched = changes.some(
        (change) =>
          change.key === stateKey ||
          (change.kind === 'unknown' && stateKey.startsWith(`${change.key}/`)),
      );
      if (touched) poke();
    },
    { reconcileIntervalMs: reconcileMs, onError },
  );
  let stopInbox: () => Promise<void>;
  try {
    stopInbox = await handle.mailbox.watchInbox(
      member,
      (messages) => {
        add(messages);
        poke();
      },
      { reconcileIntervalMs: reconcileMs, onError },
    );
  } catch (error) {
    await stopState();
    throw error;
  }
  const timer = setInterval(poke, reconcileMs);
  signal?.addEventListener('abort', poke, { once: true });
  return {
    async next() {
      if (!due) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      wake = undefined;
      due = false;
    },
    mail: () => [...unread.values()].sort(byArrival),
    add,
    forget(messageIds) {
      for (const id of messageIds) unread.delete(id);
    },
    async close() {
      clearInterval(timer);
      signal?.removeEventListener('abort', poke);
      await Promise.all([stopInbox(), stopState()]);
      wake?.();
    },
  };
}
