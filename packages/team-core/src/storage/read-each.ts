import { isTeamkitError } from '../errors/index.js';
import type { ReadOutcome, StoredValue, StoreKey } from './teamkit-store.js';

/**
 * {@link TeamkitStore.readMany} for a store whose reads cost the same one at a time:
 * `read` per key in order, a typed error kept in the key's place. Anything else thrown
 * (a defect) still propagates.
 */
export async function readEach(
  read: (key: StoreKey) => Promise<StoredValue | undefined>,
  keys: readonly StoreKey[],
): Promise<ReadOutcome[]> {
  const outcomes: ReadOutcome[] = [];
  for (const key of keys) {
    try {
      outcomes.push({ value: await read(key) });
    } catch (error) {
      if (!isTeamkitError(error)) throw error;
      outcomes.push({ error });
    }
  }
  return outcomes;
}
