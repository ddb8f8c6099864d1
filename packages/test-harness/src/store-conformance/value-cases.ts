import { isTeamkitError } from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { describe, expect } from 'vitest';
import { type ConformanceCases, expectCode } from './conformance-context.js';

const KEY = 'runtime/values/state.json';

/** Keys every store must refuse with `PATH_TRAVERSAL`, touching nothing. */
export const BAD_KEYS = [
  '',
  '/etc/passwd',
  'a/../b',
  '..',
  'a//b',
  'a/./b',
  'a/',
  'a\\b',
  'a\0b',
  'ümlaut',
  'with space',
  'a/.rev',
  'a/.tmp-123',
  'a/.trash-1/b',
];

/** Revisions, creates, updates, puts, removals, listings and markers. */
export function registerValueCases({ storeCase }: ConformanceCases): void {
  describe('values', () => {
    storeCase('reads nothing where nothing was written', async (store) => {
      expect(await store.read(KEY)).toBeUndefined();
      expect(await store.stat(KEY)).toBeUndefined();
      expect(await store.list('runtime/values')).toEqual([]);
    });

    storeCase('creates a value once and gives back its text and revision', async (store) => {
      const text = '{"name":"ünïcode ✓"}\n';
      const revision = await store.create(KEY, text);
      expect(typeof revision).toBe('string');
      expect(await store.read(KEY)).toEqual({ text, revision });
      await expectCode(() => store.create(KEY, 'second'), 'ALREADY_EXISTS');
      expect(await store.read(KEY)).toEqual({ text, revision });
      expect(await store.create('runtime/values/empty', '')).toEqual(expect.any(String));
      expect((await store.read('runtime/values/empty'))?.text).toBe('');
    });

    storeCase('updates only at the current revision', async (store) => {
      const first = await store.create(KEY, 'one');
      const second = await store.update(KEY, 'two', first);
      expect(second).not.toBe(first);
      expect(await store.read(KEY)).toEqual({ text: 'two', revision: second });
      await expectCode(() => store.update(KEY, 'stale', first), 'REVISION_CONFLICT');
      expect(await store.read(KEY)).toEqual({ text: 'two', revision: second });
      const third = await store.update(KEY, 'three', second);
      await expectCode(() => store.update(KEY, 'stale', second), 'REVISION_CONFLICT');
      await expectCode(() => store.update(KEY, 'stale', first), 'REVISION_CONFLICT');
      expect(await store.read(KEY)).toEqual({ text: 'three', revision: third });
    });

    storeCase('refuses a revision of another value and a malformed one', async (store) => {
      await store.create(KEY, 'mine');
      const other = await store.create('runtime/values/other.json', 'theirs');
      await expectCode(() => store.update(KEY, 'x', other), 'REVISION_CONFLICT');
      await expectCode(() => store.update(KEY, 'x', 'not a revision'), 'INVALID_INPUT');
      expect((await store.read(KEY))?.text).toBe('mine');
    });

    storeCase('update of an absent or removed value is DOCUMENT_NOT_FOUND', async (store) => {
      const first = await store.create(KEY, 'one');
      await expectCode(
        () => store.update('runtime/values/never', 'x', first),
        'DOCUMENT_NOT_FOUND',
      );
      await store.remove(KEY);
      expect(await store.read(KEY)).toBeUndefined();
      await expectCode(() => store.update(KEY, 'late', first), 'DOCUMENT_NOT_FOUND');
      expect(await store.read(KEY)).toBeUndefined();
      const again = await store.create(KEY, 'again');
      await expectCode(() => store.update(KEY, 'late', first), 'REVISION_CONFLICT');
      expect(await store.read(KEY)).toEqual({ text: 'again', revision: again });
      await store.remove('runtime/values/never');
    });

    storeCase('put creates or replaces, and fences readers of the old value', async (store) => {
      const created = await store.put(KEY, 'one');
      expect(await store.read(KEY)).toEqual({ text: 'one', revision: created });
      const replaced = await store.put(KEY, 'two');
      expect(replaced).not.toBe(created);
      await expectCode(() => store.update(KEY, 'late', created), 'REVISION_CONFLICT');
      expect(await store.read(KEY)).toEqual({ text: 'two', revision: replaced });
      await store.remove(KEY);
      expect(await store.put(KEY, 'three')).toEqual(expect.any(String));
      expect((await store.read(KEY))?.text).toBe('three');
    });

    storeCase('reads many values as read does, each outcome in its place', async (store) => {
      const kept = await store.create('runtime/run/tasks/1.json', 'one');
      const first = await store.create('runtime/run/tasks/2.json', 'two');
      const second = await store.update('runtime/run/tasks/2.json', 'two, second', first);
      await store.create('runtime/run/tasks/3.json', 'removed');
      await store.remove('runtime/run/tasks/3.json');
      await store.create('runtime/run/state.json', 'state');
      const keys = [
        'runtime/run/tasks/2.json',
        'runtime/run/tasks/1.json',
        'runtime/run/tasks/3.json',
        'runtime/run/tasks/9.json',
        'a/../b',
        'runtime/run/state.json',
        'runtime/never/1.json',
      ];
      const outcomes = await store.readMany(keys);
      expect(outcomes).toHaveLength(keys.length);
      expect(outcomes.slice(0, 4)).toEqual([
        { value: { text: 'two, second', revision: second } },
        { value: { text: 'one', revision: kept } },
        { value: undefined },
        { value: undefined },
      ]);
      const refused = outcomes[4];
      expect(refused !== undefined && 'error' in refused && refused.error.code).toBe(
        'PATH_TRAVERSAL',
      );
      expect(outcomes.slice(5)).toEqual([
        { value: await store.read('runtime/run/state.json') },
        { value: undefined },
      ]);
      expect(await store.readMany([])).toEqual([]);
    });

    storeCase('one of many concurrent updates of one revision wins', async (store) => {
      for (let round = 0; round < 5; round += 1) {
        const revision = await store.put(KEY, `round ${round}`);
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, (_, writer) => store.update(KEY, `writer ${writer}`, revision)),
        );
        const winners = outcomes.flatMap((outcome, writer) =>
          outcome.status === 'fulfilled' ? [{ writer, revision: outcome.value }] : [],
        );
        expect(winners).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') {
            expect(isTeamkitError(outcome.reason, 'REVISION_CONFLICT')).toBe(true);
          }
        }
        const [winner] = winners;
        expect(await store.read(KEY)).toEqual({
          text: `writer ${winner?.writer}`,
          revision: winner?.revision,
        });
      }
    });

    storeCase('one of many concurrent creates wins', async (store) => {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, writer) => store.create(KEY, `writer ${writer}`)),
      );
      const winners = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      expect(winners).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          expect(isTeamkitError(outcome.reason, 'ALREADY_EXISTS')).toBe(true);
        }
      }
    });

    storeCase('lists child names sorted, and stats values and folders', async (store) => {
      await store.create('runtime/run/tasks/2.json', '{}');
      await store.create('runtime/run/tasks/10.json', '{}');
      await store.create('runtime/run/state.json', 'state');
      await store.create('runtime/runner/state.json', 'other run');
      expect(await store.list('runtime/run')).toEqual(['state.json', 'tasks']);
      expect(await store.list('runtime/run/tasks')).toEqual(['10.json', '2.json']);
      expect(await store.list('runtime')).toEqual(['run', 'runner']);
      expect(await store.list('')).toContain('runtime');
      expect(await store.stat('runtime/run/state.json')).toMatchObject({ kind: 'value', size: 5 });
      expect((await store.stat('runtime/run/state.json'))?.modifiedAt).toEqual(expect.any(Number));
      expect(await store.stat('runtime/run/tasks')).toMatchObject({ kind: 'folder' });
      await store.remove('runtime/run/state.json');
      expect(await store.list('runtime/run')).toEqual(['tasks']);
      expect(await store.stat('runtime/run/state.json')).toBeUndefined();
    });

    storeCase('removes a tree and nothing beside it', async (store) => {
      await store.create('runtime/run/state.json', 'a');
      await store.create('runtime/run/tasks/1.json', 'b');
      await store.append('runtime/run/events.jsonl', 'c');
      await store.addEntry('runtime/run/inboxes/lead', 'm1', 'd');
      await store.create('runtime/runner/state.json', 'kept');
      await store.removeTree('runtime/run');
      expect(await store.read('runtime/run/state.json')).toBeUndefined();
      expect(await store.read('runtime/run/tasks/1.json')).toBeUndefined();
      expect((await store.readLog('runtime/run/events.jsonl')).lines).toEqual([]);
      expect(await store.entryState('runtime/run/inboxes/lead', 'm1')).toBeUndefined();
      expect(await store.list('runtime')).toEqual(['runner']);
      expect((await store.read('runtime/runner/state.json'))?.text).toBe('kept');
      await store.removeTree('runtime/never');
      await store.create('runtime/run/state.json', 'a new run folder');
    });

    storeCase('claims a marker exactly once among concurrent callers', async (store) => {
      const claims = await Promise.all(
        Array.from({ length: 10 }, () => store.claimMarker('runtime/run/inboxes/.sent/1')),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.claimMarker('runtime/run/inboxes/.sent/1')).toBe(false);
      expect(await store.claimMarker('runtime/run/inboxes/.sent/2')).toBe(true);
    });

    storeCase('refuses bad keys in every operation and writes nothing', async (store) => {
      const operations: [string, (key: string) => Promise<unknown>][] = [
        ['read', (key) => store.read(key)],
        ['create', (key) => store.create(key, 'x')],
        ['update', async (key) => store.update(key, 'x', await store.put('ok', 'x'))],
        ['put', (key) => store.put(key, 'x')],
        ['remove', (key) => store.remove(key)],
        ['removeTree', (key) => store.removeTree(key)],
        ['stat', (key) => store.stat(key)],
        ['claimMarker', (key) => store.claimMarker(key)],
        ['addEntry', (key) => store.addEntry(key, 'id', 'x')],
        ['addEntry id', (key) => store.addEntry('inbox', key, 'x')],
        ['listEntries', (key) => store.listEntries(key, 'unread')],
        ['append', (key) => store.append(key, 'x')],
        ['readLog', (key) => store.readLog(key)],
        ['withLock', (key) => store.withLock(key, async () => 'x')],
      ];
      for (const [name, operation] of operations) {
        for (const key of BAD_KEYS) {
          await expectCode(() => operation(key), 'PATH_TRAVERSAL').catch((error: unknown) => {
            throw new Error(`${name}(${JSON.stringify(key)}): ${String(error)}`);
          });
        }
      }
      for (const key of ['../x', '/x', 'a/../../x']) {
        await expectCode(() => store.list(key), 'PATH_TRAVERSAL');
        await expectCode(() => store.watch(key, () => {}), 'PATH_TRAVERSAL');
      }
      expect(await store.list('')).toEqual(['ok']);
    });
  });
}

/** Reads the number stored at `key`. */
export async function readNumber(store: TeamkitStore, key: string): Promise<number> {
  return Number((await store.read(key))?.text);
}
