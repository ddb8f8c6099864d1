import { TeamkitError } from '../errors/index.js';
import type { MessageSlots } from './inbox-store.js';

const MAX_ATTEMPTS = 10_000;

/** The run's count of stored messages against `policy.bounds.maxMessagesPerRun`. */
export interface MessageBudget {
  /** Takes the next slot; returns the running count, or `undefined` when `max` is reached. */
  take(max: number): Promise<number | undefined>;
  /** How many slots are taken: the number of messages the run has stored. */
  count(): Promise<number>;
}

/**
 * Counts stored messages against `policy.bounds.maxMessagesPerRun` without a lock:
 * message n takes slot n, which exactly one taker gets. Every taker takes the lowest
 * free slot, so the taken slots are exactly 1..count and the next free one is found by
 * an exponential then binary search from the last slot this process saw. Cost per
 * message: one exclusive create (plus a few checks when other processes sent
 * meanwhile). Slots need not be durable: a power loss (not a process crash) may forget
 * the last few, which can only let the run send that many more.
 */
export function createMessageBudget(slots: MessageSlots): MessageBudget {
  let known = 0;

  async function firstFree(max: number): Promise<number> {
    let low = known;
    let step = 1;
    let high = low + step;
    while (high <= max + 1 && (await slots.isTaken(high))) {
      low = high;
      step *= 2;
      high = low + step;
    }
    high = Math.min(high, max + 1);
    // Invariant: slot `low` is taken (or 0), slot `high` is free or beyond the bound.
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await slots.isTaken(middle)) low = middle;
      else high = middle;
    }
    return high;
  }

  return {
    async take(max) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const slot = await firstFree(max);
        if (slot > max) {
          known = Math.max(known, max);
          return undefined;
        }
        if (await slots.claim(slot)) {
          known = slot;
          return slot;
        }
        known = slot;
      }
      throw new TeamkitError(
        'LOCK_TIMEOUT',
        `Could not count this message against the run's message bound: other senders took ${MAX_ATTEMPTS} slots first. Nothing was sent; try again.`,
        { details: { attempts: MAX_ATTEMPTS } },
      );
    },
    async count() {
      const taken = (await firstFree(Number.POSITIVE_INFINITY)) - 1;
      known = Math.max(known, taken);
      return taken;
    },
  };
}
