import { isTeamkitError } from '@teamkit/team-core';
import { describe, expect, it } from 'vitest';
import {
  decodeKvKey,
  decodeLogSubject,
  entryKey,
  ledgerKey,
  lockKey,
  logSubject,
  natsNames,
  prefixFilter,
  valueKey,
} from './key-mapping.js';

const NATS_KEY = /^[-/=.\w]+$/;

describe('key mapping', () => {
  it('maps keys to KV keys one to one, segments to tokens, dots to "="', () => {
    expect(valueKey('runtime/r1/state.json')).toBe('runtime.r1.state=json');
    expect(valueKey('runtime/r1/tasks/.lock')).toBe('runtime.r1.tasks.=lock');
    expect(decodeKvKey('runtime.r1.state=json')).toEqual({
      kind: 'value',
      key: 'runtime/r1/state.json',
    });
    for (const key of ['a', 'a.b/c..d', 'x/.sent/1', 'A-b_c/D.E.F', '-/_']) {
      const kvKey = valueKey(key);
      expect(kvKey).toMatch(NATS_KEY);
      expect(kvKey.startsWith('.') || kvKey.endsWith('.')).toBe(false);
      expect(decodeKvKey(kvKey)).toEqual({ kind: 'value', key });
    }
    expect(valueKey('a.b')).not.toBe(valueKey('a/b'));
  });

  it('keeps prefixes as subject prefixes', () => {
    expect(prefixFilter('')).toBe('>');
    expect(prefixFilter('runtime/r1')).toBe('runtime.r1.>');
    expect(valueKey('runtime/r1/tasks/1.json').startsWith('runtime.r1.')).toBe(true);
    expect(valueKey('runtime/r10/state.json').startsWith('runtime.r1.')).toBe(false);
  });

  it('gives entries, ledgers and locks tokens no Teamkit key can produce', () => {
    const collection = valueKey('runtime/r1/inboxes/lead');
    expect(entryKey(collection, 'm.1')).toBe('runtime.r1.inboxes.lead./entry.m=1');
    expect(decodeKvKey(entryKey(collection, 'm.1'))).toEqual({
      kind: 'entry',
      collection: 'runtime/r1/inboxes/lead',
      id: 'm.1',
    });
    expect(decodeKvKey(ledgerKey(collection))).toEqual({
      kind: 'ledger',
      collection: 'runtime/r1/inboxes/lead',
    });
    expect(lockKey('runtime/r1/tasks/.lock')).toBe('/lock.runtime.r1.tasks.=lock');
    expect(decodeKvKey(lockKey('runtime/r1/state.json'))).toEqual({ kind: 'internal' });
    for (const key of [entryKey(collection, 'x'), ledgerKey(collection), lockKey('a/b')]) {
      expect(key).toMatch(NATS_KEY);
    }
  });

  it('maps logs to subjects of the log stream and back', () => {
    const names = natsNames('team-1');
    expect(names).toMatchObject({
      bucket: 'team-1',
      bucketStream: 'KV_team-1',
      logStream: 'team-1-logs',
      blobBucket: 'team-1-blobs',
    });
    const subject = logSubject(names, 'runtime/r1/events.jsonl');
    expect(subject).toBe('team-1.log.runtime.r1.events=jsonl');
    expect(decodeLogSubject(names, subject)).toBe('runtime/r1/events.jsonl');
    expect(decodeLogSubject(names, 'other.log.x')).toBeUndefined();
  });

  it('refuses bad keys, bad prefixes and keys too long for a subject', () => {
    for (const bad of ['', '../x', 'a//b', 'a/.rev', 'with space']) {
      expect(() => valueKey(bad)).toThrow(
        expect.objectContaining({ code: 'PATH_TRAVERSAL' }) as Error,
      );
    }
    expect(() => natsNames('a.b')).toThrow(/bucket prefix/);
    const long = Array.from({ length: 20 }, () => 'x'.repeat(190)).join('/');
    let error: unknown;
    try {
      valueKey(long);
    } catch (caught) {
      error = caught;
    }
    expect(isTeamkitError(error, 'INVALID_INPUT')).toBe(true);
  });
});
