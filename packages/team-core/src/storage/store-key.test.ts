import { describe, expect, it } from 'vitest';
import { isTeamkitError } from '../errors/index.js';
import { assertEntryId, assertKeySegment, storeKeySegments } from './store-key.js';

function codeOf(check: () => unknown): string {
  try {
    check();
    return 'ok';
  } catch (error) {
    return isTeamkitError(error) ? error.code : String(error);
  }
}

describe('store keys', () => {
  it('splits a good key into its segments', () => {
    expect(storeKeySegments('runtime/r-1/tasks/.highwatermark')).toEqual([
      'runtime',
      'r-1',
      'tasks',
      '.highwatermark',
    ]);
    expect(storeKeySegments('', 'prefix', true)).toEqual([]);
  });

  it.each([
    '',
    '/abs',
    'a/',
    'a//b',
    '.',
    'a/..',
    'a\\b',
    'a b',
    'a\0b',
    'é',
    'a/.rev/b',
    'a/.tmp-x',
    'a/.trash-x',
    'x'.repeat(201),
    Array.from({ length: 33 }, () => 'a').join('/'),
  ])('refuses %j with PATH_TRAVERSAL', (key) => {
    expect(codeOf(() => storeKeySegments(key))).toBe('PATH_TRAVERSAL');
  });

  it('checks single segments and entry ids', () => {
    expect(assertKeySegment('writer-2')).toBe('writer-2');
    expect(codeOf(() => assertKeySegment('a/b'))).toBe('PATH_TRAVERSAL');
    expect(assertEntryId('5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69')).toBe(
      '5f0c2a52-7f0e-4d1e-9a3b-2f1d3c4b5a69',
    );
    expect(codeOf(() => assertEntryId('.delivering-x'))).toBe('PATH_TRAVERSAL');
    expect(codeOf(() => assertEntryId(42 as unknown as string))).toBe('PATH_TRAVERSAL');
  });
});
