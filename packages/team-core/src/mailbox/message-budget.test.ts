import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { createMessageBudget } from './message-budget.js';

describe('message budget', () => {
  it('takes slots 1..max in order, then refuses, and counts what was taken', async () => {
    const taken = new Set<number>();
    const budget = createMessageBudget({
      isTaken: async (slot) => taken.has(slot),
      claim: async (slot) => !taken.has(slot) && Boolean(taken.add(slot)),
    });
    expect([await budget.take(3), await budget.take(3), await budget.take(3)]).toEqual([1, 2, 3]);
    expect(await budget.take(3)).toBeUndefined();
    expect(await budget.count()).toBe(3);
  });

  it('gives up with a typed LOCK_TIMEOUT when every slot it tries is taken first', async () => {
    // Another sender always takes the slot between the search and the claim.
    const budget = createMessageBudget({ isTaken: async () => false, claim: async () => false });
    const error = await budget.take(1_000_000_000).catch((caught: unknown) => caught);
    expect(isTeamkitError(error, 'LOCK_TIMEOUT'), String(error)).toBe(true);
  });
});
