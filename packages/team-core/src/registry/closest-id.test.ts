import { describe, expect, it } from 'vitest';
import { closestId } from './closest-id.js';

describe('closestId', () => {
  it('suggests the nearest id within a third of its length, the earlier one on a tie', () => {
    const ids = ['coding-team', 'solo', 'duo', 'squad'];
    expect(closestId('codingteam', ids)).toBe('coding-team');
    expect(closestId('coding-taem', ids)).toBe('coding-team');
    expect(closestId('sqad', ids)).toBe('squad');
    expect(closestId('solo', ids)).toBeUndefined();
    expect(closestId('ghost', ids)).toBeUndefined();
    expect(closestId('ab', ['ax', 'ay'])).toBe('ax');
    expect(closestId('x', [])).toBeUndefined();
  });
});
