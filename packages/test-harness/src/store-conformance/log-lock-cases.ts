import { setTimeout as delay } from 'node:timers/promises';
import type { StoreChange } from '@teamkit/team-core/storage';
import { describe, expect } from 'vitest';
import { type ConformanceCases, expectCode, thrown, waitFor } from './conformance-context.js';

const LOG = 'runtime/run/events.jsonl';

/** Logs, locks and prefix watches. */
export function registerLogLockWatchCases({ storeCase }: ConformanceCases): void {
  describe('logs', () => {
    storeCase('appends lines in order and reads on from a cursor', async (store) => {
      expect(await store.readLog(LOG)).toMatchObject({ lines: [], skipped: 0, atEnd: true });
      await store.append(LOG, '{"n":1}');
      await store.append(LOG, 'two ✓');
      const first = await store.readLog(LOG);
      expect(first).toMatchObject({ lines: ['{"n":1}', 'two ✓'], skipped: 0, atEnd: true });
      expect(await store.readLog(LOG, first.cursor)).toMatchObject({ lines: [], atEnd: true });
      await store.append(LOG, 'three');
      expect((await store.readLog(LOG, first.cursor)).lines).toEqual(['three']);
      await expectCode(() => store.append(LOG, 'two\nlines'), 'INVALID_INPUT');
      await expectCode(() => store.readLog(LOG, 'not a cursor'), 'INVALID_INPUT');
    });

    storeCase('reads a long log in pages that add up to the whole', async (store) => {
      const lines = Array.from({ length: 300 }, (_, index) => `line ${index} ${'x'.repeat(index)}`);
      for (const line of lines) await store.append(LOG, line);
      const paged: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 1_000; page += 1) {
        const read = await store.readLog(LOG, cursor, { maxBytes: 4_096 });
        paged.push(...read.lines);
        cursor = read.cursor;
        if (read.atEnd) break;
      }
      expect(paged).toEqual(lines);
      expect((await store.readLog(LOG)).lines).toEqual(lines);
    });

    storeCase('keeps concurrent appends whole', async (store) => {
      const lines = Array.from(
        { length: 200 },
        (_, index) => `{"writer":${index % 4},"i":${index}}`,
      );
      await Promise.all(lines.map((line) => store.append(LOG, line)));
      const read = await store.readLog(LOG);
      expect([...read.lines].sort()).toEqual([...lines].sort());
      expect(read.skipped).toBe(0);
    });
  });

  describe('locks', () => {
    storeCase('runs one holder at a time and releases on every exit', async (store) => {
      let inside = 0;
      let overlaps = 0;
      const holder = async (index: number) =>
        store.withLock('runtime/run/tasks/.lock', async (lock) => {
          expect(lock.key).toBe('runtime/run/tasks/.lock');
          expect(lock.compromised).toBe(false);
          lock.assertHeld();
          inside += 1;
          if (inside > 1) overlaps += 1;
          await delay(5);
          inside -= 1;
          if (index === 3) throw new Error('holder 3 fails');
          return index;
        });
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => holder(i)));
      expect(overlaps).toBe(0);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(7);
      const failure = outcomes[3];
      expect(failure?.status === 'rejected' && String(failure.reason)).toContain('holder 3 fails');
      expect(await store.withLock('runtime/run/tasks/.lock', async () => 'free again')).toBe(
        'free again',
      );
    });

    storeCase('gives up with LOCK_TIMEOUT while another holds the lock', async (store) => {
      let release: () => void = () => {};
      const held = store.withLock(
        'runtime/run/state.json',
        () => new Promise<void>((resolve) => (release = resolve)),
      );
      await delay(50);
      const error = await thrown(() =>
        store.withLock('runtime/run/state.json', async () => 'never', { timeoutMs: 300 }),
      );
      expect((error as { code?: string }).code).toBe('LOCK_TIMEOUT');
      release();
      await held;
    });
  });

  describe('watch', () => {
    storeCase(
      'reports puts and removals under a prefix, nothing else, until closed',
      async (store) => {
        const seen: StoreChange[] = [];
        const stop = await store.watch('runtime/run', (changes) => seen.push(...changes), {
          reconcileIntervalMs: 300,
        });
        await store.put('runtime/run/state.json', 'one');
        await store.put('runtime/other/state.json', 'elsewhere');
        await waitFor(
          () => seen.some((c) => c.key === 'runtime/run/state.json' && c.kind !== 'delete'),
          'the put to be reported',
        );
        await store.put('runtime/run/tasks/1.json', 'task');
        await waitFor(
          () => seen.some((c) => c.key === 'runtime/run/tasks/1.json' && c.kind !== 'delete'),
          'a put in a new folder to be reported',
        );
        await store.remove('runtime/run/state.json');
        await waitFor(
          () => seen.some((c) => c.key === 'runtime/run/state.json' && c.kind !== 'put'),
          'the removal to be reported',
        );
        expect(seen.some((change) => change.key.startsWith('runtime/other'))).toBe(false);
        await stop();
        const count = seen.length;
        await store.put('runtime/run/state.json', 'after close');
        await delay(700);
        expect(seen.length).toBe(count);
      },
    );

    storeCase('sends a throwing callback to onError and keeps watching', async (store) => {
      const errors: unknown[] = [];
      const keys: string[] = [];
      const stop = await store.watch(
        'runtime/run',
        (changes) => {
          keys.push(...changes.map((change) => change.key));
          throw new Error('callback failed');
        },
        { onError: (error) => errors.push(error), reconcileIntervalMs: 300 },
      );
      await store.put('runtime/run/a.json', 'a');
      await waitFor(() => errors.length > 0, 'the callback error to reach onError');
      await store.put('runtime/run/b.json', 'b');
      await waitFor(() => keys.includes('runtime/run/b.json'), 'the next change');
      await store.close();
      await stop();
    });
  });
}
