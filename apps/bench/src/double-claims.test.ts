import { describe, expect, it } from 'vitest';
import { auditClaims, findDoubleClaims } from './double-claims.js';

describe('findDoubleClaims', () => {
  it('finds nothing when every task has one winner', () => {
    const claims = new Map([
      ['w0', ['1', '3']],
      ['w1', ['2']],
    ]);
    expect(findDoubleClaims(claims)).toEqual([]);
  });

  it('detects a task won by two claimants', () => {
    const claims = new Map([
      ['w0', ['1', '2']],
      ['w1', ['2', '3']],
    ]);
    expect(findDoubleClaims(claims)).toEqual([{ taskId: '2', owners: ['w0', 'w1'] }]);
  });

  it('detects a task one claimant won twice', () => {
    expect(findDoubleClaims(new Map([['w0', ['7', '7']]]))).toEqual([
      { taskId: '7', owners: ['w0', 'w0'] },
    ]);
  });
});

describe('auditClaims', () => {
  it('reports unclaimed tasks and owners the store disagrees with', () => {
    const claims = new Map([
      ['w0', ['1']],
      ['w1', ['2']],
    ]);
    const stored = new Map<string, string | undefined>([
      ['1', 'w0'],
      ['2', 'w0'],
      ['3', undefined],
    ]);
    expect(auditClaims(['1', '2', '3'], claims, stored)).toEqual({
      doubleClaims: [],
      unclaimed: ['3'],
      ownerMismatches: ['2'],
      claims: 2,
    });
  });

  it('counts a double claim in the audit', () => {
    const claims = new Map([
      ['w0', ['1']],
      ['w1', ['1']],
    ]);
    const audit = auditClaims(['1'], claims);
    expect(audit.doubleClaims).toHaveLength(1);
    expect(audit.claims).toBe(2);
  });
});
