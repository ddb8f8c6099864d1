import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { MemberIdRegistry } from './member-id-registry.js';

describe('MemberIdRegistry', () => {
  it('refuses a registration in a closed transaction with a typed error', () => {
    const registry = new MemberIdRegistry();
    const transaction = registry.begin('demo', '/teams/demo/team.yaml');
    transaction.register('lead');
    transaction.commit();
    let error: unknown;
    try {
      transaction.register('writer');
    } catch (caught) {
      error = caught;
    }
    expect(isTeamkitError(error, 'INVALID_INPUT'), String(error)).toBe(true);
    expect([...registry.entries.keys()]).toEqual(['demo/lead']);
  });
});
