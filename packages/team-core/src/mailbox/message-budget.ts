import path from 'node:path';
import { createMarkerFile, type PathStore } from '../storage/index.js';

const MAX_ATTEMPTS = 10_000;

/**
 * Counts stored messages against `policy.bounds.maxMessagesPerRun` without a lock:
 * message n creates the empty slot file `<folder>/<n>` with O_EXCL. Every taker takes
 * the lowest free slot, so the taken slots are exactly 1..count and the next free one
 * is found by an exponential then binary search from the last slot this process saw.
 * Cost per message: one exclusive create (plus a few stats when other processes sent
 * meanwhile). Slots are not fsynced: a power loss (not a process crash) may forget the
 * last few, which can only let the run send that many more.
 */
export function createMessageBudget(store: PathStore, folder: string) {
  let known = 0;
  const taken = async (slot: number) =>
    (await store.stat(path.join(folder, String(slot)))) !== undefined;

  async function firstFree(max: number): Promise<number> {
    let low = known;
    let step = 1;
    let high = low + step;
    while (high <= max + 1 && (await taken(high))) {
      low = high;
      step *= 2;
      high = low + step;
    }
    high = Math.min(high, max + 1);
    // Invariant: slot `low` is taken (or 0), slot `high` is free or beyond the bound.
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (await taken(middle)) low = middle;
      else high = middle;
    }
    return high;
  }

  return {
    /** Takes the next slot; returns the running count, or `undefined` when `max` is reached. */
    async take(max: number): Promise<number | undefined> {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const slot = await firstFree(max);
        if (slot > max) {
          known = Math.max(known, max);
          return undefined;
        }
        if (await createMarkerFile(path.join(folder, String(slot)))) {
          known = slot;
          return slot;
        }
        known = slot;
      }
      throw new Error(`Could not take a message slot in ${folder} after ${MAX_ATTEMPTS} attempts.`);
    },
  };
}
