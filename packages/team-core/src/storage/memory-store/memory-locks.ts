import { TeamkitError } from '../../errors/index.js';
import type { HeldLock, LockOptions } from '../teamkit-store.js';

const DEFAULT_TIMEOUT_MS = 15_000;

interface Waiter {
  grant(): void;
}

/**
 * Named locks inside one process: first come, first served, with the same
 * `LOCK_TIMEOUT` as the file store's. A holder in one process cannot lose its lock, so
 * `compromised` stays false.
 */
export function createMemoryLocks(defaults: LockOptions) {
  const held = new Set<string>();
  const queues = new Map<string, Waiter[]>();

  function acquire(key: string, timeoutMs: number): Promise<void> {
    if (!held.has(key)) {
      held.add(key);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const queue = queues.get(key) ?? [];
      queues.set(key, queue);
      const waiter: Waiter = {
        grant() {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(
          new TeamkitError(
            'LOCK_TIMEOUT',
            `Timed out after ${timeoutMs} ms waiting for the lock ${key}. Another caller holds it.`,
            { details: { lock: key, timeoutMs } },
          ),
        );
      }, timeoutMs);
      queue.push(waiter);
    });
  }

  function release(key: string): void {
    const next = queues.get(key)?.shift();
    if (next !== undefined) {
      next.grant();
      return;
    }
    held.delete(key);
    queues.delete(key);
  }

  return {
    /** Runs `fn` holding the lock `key`; see `TeamkitStore.withLock`. */
    async withLock<T>(
      key: string,
      fn: (lock: HeldLock) => Promise<T>,
      options: LockOptions = {},
    ): Promise<T> {
      await acquire(key, options.timeoutMs ?? defaults.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      const lock: HeldLock = { key, compromised: false, assertHeld() {} };
      try {
        return await fn(lock);
      } finally {
        release(key);
      }
    },
  };
}
