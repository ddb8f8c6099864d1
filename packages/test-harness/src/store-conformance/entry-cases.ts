import { setTimeout as delay } from 'node:timers/promises';
import { isTeamkitError, TeamkitError } from '@teamkit/team-core';
import { describe, expect } from 'vitest';
import { type ConformanceCases, expectCode, thrown, waitFor } from './conformance-context.js';

const INBOX = 'runtime/run/inboxes/writer';

/** Entries: adding, moving between states exactly once, admission, listing, watching. */
export function registerEntryCases({ storeCase }: ConformanceCases): void {
  describe('entries', () => {
    storeCase('adds an entry unread, once per id in any state', async (store) => {
      await store.addEntry(INBOX, 'm1', 'first ✓');
      expect(await store.entryState(INBOX, 'm1')).toBe('unread');
      expect(await store.readEntry(INBOX, 'm1', 'unread')).toBe('first ✓');
      expect(await store.readEntry(INBOX, 'm1', 'reserved')).toBeUndefined();
      expect(await store.listEntries(INBOX, 'unread')).toEqual([
        { id: 'm1', size: Buffer.byteLength('first ✓'), changedAt: expect.any(Number) },
      ]);
      await expectCode(() => store.addEntry(INBOX, 'm1', 'again'), 'ALREADY_EXISTS');
      await store.moveEntries(INBOX, ['m1'], ['unread'], 'reserved');
      await expectCode(() => store.addEntry(INBOX, 'm1', 'again'), 'ALREADY_EXISTS');
      await store.moveEntries(INBOX, ['m1'], ['reserved'], 'processed');
      await expectCode(() => store.addEntry(INBOX, 'm1', 'again'), 'ALREADY_EXISTS');
      expect(await store.readEntry(INBOX, 'm1', 'processed')).toBe('first ✓');
      expect(await store.entryState(INBOX, 'missing')).toBeUndefined();
      expect(await store.listEntries('runtime/run/inboxes/nobody', 'unread')).toEqual([]);
    });

    storeCase(
      'moves from the first state an entry is in, and reports the rest missing',
      async (store) => {
        for (const id of ['a', 'b', 'c']) await store.addEntry(INBOX, id, id);
        expect(
          await store.moveEntries(INBOX, ['a'], ['unread'], 'reserved', { at: 1_000 }),
        ).toEqual({
          moved: ['a'],
          missing: [],
        });
        expect(await store.listEntries(INBOX, 'reserved')).toEqual([
          { id: 'a', size: 1, changedAt: 1_000 },
        ]);
        expect(
          await store.moveEntries(
            INBOX,
            ['a', 'b', 'zz', 'b'],
            ['unread', 'reserved'],
            'processed',
          ),
        ).toEqual({ moved: ['a', 'b'], missing: ['zz'] });
        expect(await store.moveEntries(INBOX, ['a'], ['unread', 'reserved'], 'processed')).toEqual({
          moved: [],
          missing: ['a'],
        });
        expect((await store.listEntries(INBOX, 'processed')).map((entry) => entry.id)).toEqual([
          'a',
          'b',
        ]);
        expect(await store.moveEntries(INBOX, ['c'], ['unread'], 'reserved')).toEqual({
          moved: ['c'],
          missing: [],
        });
        expect(await store.moveEntries(INBOX, ['c'], ['reserved'], 'unread')).toEqual({
          moved: ['c'],
          missing: [],
        });
        expect(await store.entryState(INBOX, 'c')).toBe('unread');
        expect(await store.moveEntries(INBOX, [], ['unread'], 'reserved')).toEqual({
          moved: [],
          missing: [],
        });
        await expectCode(() => store.moveEntries(INBOX, ['c'], [], 'reserved'), 'INVALID_INPUT');
        await expectCode(
          () => store.moveEntries(INBOX, ['c'], ['unread'], 'unread'),
          'INVALID_INPUT',
        );
        await expectCode(() => store.addEntry(INBOX, '.hidden', 'x'), 'PATH_TRAVERSAL');
      },
    );

    storeCase('moves only entries changed at or before a time when asked', async (store) => {
      for (const id of ['old', 'new']) await store.addEntry(INBOX, id, id);
      await store.moveEntries(INBOX, ['old'], ['unread'], 'reserved', { at: 1_000 });
      await store.moveEntries(INBOX, ['new'], ['unread'], 'reserved', { at: 5_000 });
      expect(
        await store.moveEntries(INBOX, ['old', 'new', 'zz'], ['reserved'], 'unread', {
          changedAtOrBefore: 2_000,
        }),
      ).toEqual({ moved: ['old'], missing: ['new', 'zz'] });
      expect(await store.entryState(INBOX, 'old')).toBe('unread');
      expect(await store.entryState(INBOX, 'new')).toBe('reserved');
      expect(
        await store.moveEntries(INBOX, ['new'], ['reserved'], 'unread', {
          changedAtOrBefore: 5_000,
        }),
      ).toEqual({ moved: ['new'], missing: [] });
    });

    storeCase(
      'admits with exact pending totals and refuses with the caller error',
      async (store) => {
        const seen: { bytes: number; count: number }[] = [];
        const admit = (pending: { bytes: number; count: number }) => {
          seen.push(pending);
        };
        await store.addEntry(INBOX, 'a', 'ab', { admit });
        await store.addEntry(INBOX, 'b', 'ü', { admit });
        await store.moveEntries(INBOX, ['a'], ['unread'], 'reserved');
        await store.addEntry(INBOX, 'c', 'xyz', { admit });
        await store.moveEntries(INBOX, ['a', 'b'], ['unread', 'reserved'], 'processed');
        await store.addEntry(INBOX, 'd', 'q', { admit });
        expect(seen).toEqual([
          { bytes: 0, count: 0 },
          { bytes: 2, count: 1 },
          { bytes: 4, count: 2 },
          { bytes: 3, count: 1 },
        ]);
        const refusal = new TeamkitError('RECIPIENT_BACKPRESSURE', 'full');
        const error = await thrown(() =>
          store.addEntry(INBOX, 'e', 'refused', {
            admit: () => {
              throw refusal;
            },
          }),
        );
        expect(error).toBe(refusal);
        expect(await store.entryState(INBOX, 'e')).toBeUndefined();
        await store.addEntry(INBOX, 'e', 'admitted after all');
      },
    );

    storeCase('admits exactly up to a cap under concurrent adds', async (store) => {
      const cap = 7;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, index) =>
          store.addEntry(INBOX, `m${index}`, 'x', {
            admit: (pending) => {
              if (pending.count >= cap) throw new TeamkitError('RECIPIENT_BACKPRESSURE', 'full');
            },
          }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(cap);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          expect(isTeamkitError(outcome.reason, 'RECIPIENT_BACKPRESSURE')).toBe(true);
        }
      }
      expect(await store.listEntries(INBOX, 'unread')).toHaveLength(cap);
    });

    storeCase('moves each entry exactly once among concurrent movers', async (store) => {
      const ids = Array.from({ length: 12 }, (_, index) => `m${index}`);
      for (const id of ids) await store.addEntry(INBOX, id, id);
      const outcomes = await Promise.all(
        Array.from({ length: 5 }, () => store.moveEntries(INBOX, ids, ['unread'], 'reserved')),
      );
      const moved = outcomes.flatMap((outcome) => outcome.moved).sort();
      expect(moved).toEqual([...ids].sort());
      for (const outcome of outcomes) {
        expect([...outcome.moved, ...outcome.missing].sort()).toEqual([...ids].sort());
      }
      expect(await store.listEntries(INBOX, 'unread')).toEqual([]);
      expect(await store.listEntries(INBOX, 'reserved')).toHaveLength(ids.length);
    });

    storeCase('watchEntries reports an added entry until closed', async (store) => {
      const calls: (string[] | 'all')[] = [];
      const stop = await store.watchEntries(INBOX, (ids) => calls.push(ids), {
        reconcileIntervalMs: 200,
      });
      await store.addEntry(INBOX, 'm1', 'x');
      await waitFor(
        () => calls.some((ids) => ids === 'all' || ids.includes('m1')),
        'the watch to report m1',
      );
      await stop();
      const after = calls.length;
      await store.addEntry(INBOX, 'm2', 'x');
      await delay(500);
      expect(calls.length).toBe(after);
    });
  });
}
