import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEAMKIT_ERROR_CODES } from './error-codes.js';
import { isTeamkitError, TeamkitError } from './teamkit-error.js';

describe('TeamkitError', () => {
  it('carries its code, kind, cause and details', () => {
    const cause = new Error('EACCES');
    const error = new TeamkitError('IO_ERROR', 'Could not write.', {
      cause,
      details: { path: 'x' },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TeamkitError');
    expect(error.kind).toBe('internal');
    expect(error.cause).toBe(cause);
    expect(error.toJSON()).toEqual({
      code: 'IO_ERROR',
      message: 'Could not write.',
      details: { path: 'x' },
    });
    expect(new TeamkitError('LOCK_TIMEOUT', 'm').toJSON()).toEqual({
      code: 'LOCK_TIMEOUT',
      message: 'm',
    });
  });

  it('documents every code with a kind', () => {
    const kinds = new Set(['usage', 'not_found', 'conflict', 'refused', 'internal']);
    for (const [code, entry] of Object.entries(TEAMKIT_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(kinds.has(entry.kind)).toBe(true);
      expect(entry.description.length).toBeGreaterThan(10);
    }
  });
});

describe('isTeamkitError', () => {
  it('recognises its own errors and narrows by code', () => {
    const error = new TeamkitError('PATH_TRAVERSAL', 'no');
    expect(isTeamkitError(error)).toBe(true);
    expect(isTeamkitError(error, 'PATH_TRAVERSAL')).toBe(true);
    expect(isTeamkitError(error, 'LOCK_TIMEOUT')).toBe(false);
  });

  it.each([
    ['a plain Error with a code', Object.assign(new Error('x'), { code: 'PATH_TRAVERSAL' })],
    ['an object named TeamkitError', { name: 'TeamkitError', code: 'PATH_TRAVERSAL' }],
    ['a marker that is not true', { [Symbol.for('@teamkit/team-core/error')]: 1, code: 'X' }],
    ['null', null],
    ['a string', 'TeamkitError'],
    ['undefined', undefined],
  ])('refuses %s', (_, value) => {
    expect(isTeamkitError(value)).toBe(false);
  });

  it('recognises an error carrying the shared marker, as another copy would make it', () => {
    const foreign = Object.defineProperty(
      { name: 'TeamkitError', code: 'LOCK_TIMEOUT', message: 'other copy' },
      Symbol.for('@teamkit/team-core/error'),
      { value: true },
    );
    expect(foreign instanceof TeamkitError).toBe(false);
    expect(isTeamkitError(foreign, 'LOCK_TIMEOUT')).toBe(true);
  });

  it('recognises errors from a second instance of the built module', async () => {
    const built = path.resolve(import.meta.dirname, '../../dist/errors/teamkit-error.js');
    const url = pathToFileURL(built).href;
    const first = (await import(
      /* @vite-ignore */ `${url}?copy=1`
    )) as typeof import('./teamkit-error.js');
    const second = (await import(
      /* @vite-ignore */ `${url}?copy=2`
    )) as typeof import('./teamkit-error.js');
    expect(first.TeamkitError).not.toBe(second.TeamkitError);
    const error = new first.TeamkitError('UNKNOWN_TASK', 'no task 9');
    expect(error instanceof second.TeamkitError).toBe(false);
    expect(second.isTeamkitError(error, 'UNKNOWN_TASK')).toBe(true);
    expect(isTeamkitError(error, 'UNKNOWN_TASK')).toBe(true);
    expect(first.isTeamkitError(new TeamkitError('UNKNOWN_TASK', 'x'))).toBe(true);
  });
});
