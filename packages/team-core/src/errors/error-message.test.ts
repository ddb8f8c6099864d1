import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.js';
import { TeamkitError } from './teamkit-error.js';

describe('errorMessage', () => {
  it("gives an Error's message, or its stack when asked", () => {
    const error = new TeamkitError('INVALID_INPUT', 'Bad input.');
    expect(errorMessage(error)).toBe('Bad input.');
    expect(errorMessage(error, { stack: true })).toContain('Bad input.');
    expect(errorMessage(error, { stack: true })).toContain('error-message.test.ts');
  });

  it('gives anything else thrown as text', () => {
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ toString: () => 'custom' })).toBe('custom');
  });
});
