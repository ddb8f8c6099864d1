import type { Subscription } from '@nats-io/transport-node';
import type { NatsLink } from './nats-link.js';

/** The stale period of locks and the add slot when none is given: 10 s, at least 2 s. */
export const DEFAULT_STALE_MS = 10_000;
/** How long acquiring waits by default before `LOCK_TIMEOUT`. */
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

/** The stale period in force: the option, at least 2 s. */
export function staleMsOf(staleMs: number | undefined): number {
  return Math.max(staleMs ?? DEFAULT_STALE_MS, 2_000);
}

/**
 * Judges another process's lease by its heartbeat alone, on this process's clock: a
 * lease is stale once the same beat has been seen for longer than `staleMs`. Clocks of
 * other machines are never compared, and a holder that keeps beating is never judged
 * stale however long it holds.
 */
export function createLeaseObserver(staleMs: number, now: () => number = Date.now) {
  let seen: string | undefined;
  let since = 0;
  return {
    /** Records the lease's current beat; true when it has not changed for `staleMs`. */
    isStale(beat: string): boolean {
      if (beat !== seen) {
        seen = beat;
        since = now();
        return false;
      }
      return now() - since > staleMs;
    },
  };
}

/**
 * Wakes a waiter when a KV key changes: a plain subscription to the key's subject (every
 * KV write is published there). Missed wake-ups only cost the fallback delay.
 */
export function watchSubject(link: NatsLink, subject: string) {
  let changed = false;
  let wake: (() => void) | undefined;
  let subscription: Subscription | undefined;
  try {
    subscription = link.nc.subscribe(subject, {
      callback: () => {
        changed = true;
        wake?.();
      },
    });
  } catch {
    // A closed or draining connection: fall back to the timer alone.
  }
  return {
    /** Resolves at the next change (or at once if one came since the last call), or after `ms`. */
    next(ms: number): Promise<void> {
      if (changed) {
        changed = false;
        return Promise.resolve();
      }
      // Not node:timers/promises: a change ends this wait early from a callback, which
      // delay() offers only through an AbortController per wait and a rejection.
      return new Promise((resolve) => {
        const timer = setTimeout(done, Math.max(0, ms));
        function done(): void {
          clearTimeout(timer);
          wake = undefined;
          changed = false;
          resolve();
        }
        wake = done;
      });
    },
    close(): void {
      wake?.();
      try {
        subscription?.unsubscribe();
      } catch {
        // Already closed with the connection.
      }
    },
  };
}
