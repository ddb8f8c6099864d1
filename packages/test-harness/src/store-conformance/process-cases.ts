import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect } from 'vitest';
import type { ConformanceCases } from './conformance-context.js';
import type { StoreProcess } from './store-process.js';
import { readNumber } from './value-cases.js';
import type { WorkerReply } from './worker-protocol.js';

const KEY = 'runtime/run/tasks/1.json';
const INBOX = 'runtime/run/inboxes/writer';

function resultOf<T>(reply: WorkerReply): T {
  if (!reply.ok) throw new Error(`worker failed: ${reply.code} ${reply.message}`);
  return reply.result as T;
}

/** Cases with real processes that opened the same store: races, stalls, exactness. */
export function registerProcessCases({ processCase }: ConformanceCases): void {
  describe('across processes', () => {
    processCase(
      'one of N processes updating one revision wins, every round',
      4,
      async (store, workers) => {
        for (let round = 0; round < 10; round += 1) {
          const revision = await store.put(KEY, `round ${round}`);
          const replies = await Promise.all(
            workers.map((worker, index) =>
              worker.call({ op: 'update', key: KEY, text: `worker ${index}`, revision }),
            ),
          );
          const winners = replies.flatMap((reply, index) => (reply.ok ? [index] : []));
          expect(winners).toHaveLength(1);
          for (const reply of replies) if (!reply.ok) expect(reply.code).toBe('REVISION_CONFLICT');
          expect((await store.read(KEY))?.text).toBe(`worker ${winners[0]}`);
        }
      },
    );

    processCase('one of N processes creating one value wins', 4, async (store, workers) => {
      for (let round = 0; round < 10; round += 1) {
        const key = `runtime/run/created-${round}.json`;
        const replies = await Promise.all(
          workers.map((worker, index) =>
            worker.call({ op: 'create', key, text: `worker ${index}` }),
          ),
        );
        expect(replies.filter((reply) => reply.ok)).toHaveLength(1);
        for (const reply of replies) if (!reply.ok) expect(reply.code).toBe('ALREADY_EXISTS');
      }
      expect(await store.list('runtime/run')).toHaveLength(10);
    });

    processCase(
      'refuses the update of a writer frozen between read and update',
      1,
      async (store, [frozen]) => {
        const worker = frozen as StoreProcess;
        await store.create(KEY, 'first');
        const read = resultOf<{ revision: string }>(await worker.call({ op: 'read', key: KEY }));
        worker.pause();
        try {
          const current = await store.read(KEY);
          await store.update(KEY, 'the other writer', current?.revision as string);
          // Past any lease or lock stale period a store might have.
          await delay(2_500);
        } finally {
          worker.resume();
        }
        const late = await worker.call({
          op: 'update',
          key: KEY,
          text: 'late',
          revision: read.revision,
        });
        expect(late).toMatchObject({ ok: false, code: 'REVISION_CONFLICT' });
        expect((await store.read(KEY))?.text).toBe('the other writer');
      },
    );

    processCase(
      'reads many values while other processes update them: never older, never torn',
      2,
      async (store, workers) => {
        const keys = ['runtime/run/tasks/1.json', 'runtime/run/tasks/2.json'];
        for (const key of keys) await store.create(key, '0');
        const times = 60;
        let running = true;
        const writes = Promise.all(
          workers.map((worker, index) =>
            worker.call({ op: 'increment', key: keys[index] as string, times }),
          ),
        ).finally(() => {
          running = false;
        });
        const last = keys.map(() => 0);
        const textOf = new Map<string, string>();
        let reads = 0;
        while (running || reads === 0) {
          // A store may answer from this process without I/O: let the workers' replies in.
          await new Promise((resolve) => setImmediate(resolve));
          const outcomes = await store.readMany(keys);
          reads += 1;
          outcomes.forEach((outcome, index) => {
            if ('error' in outcome) throw outcome.error;
            const value = outcome.value as { text: string; revision: string };
            // Each call sees each value at some moment during it, so values only grow,
            // and a revision always comes with the one text written at it.
            expect(Number(value.text)).toBeGreaterThanOrEqual(last[index] as number);
            last[index] = Number(value.text);
            const seen = textOf.get(`${index} ${value.revision}`);
            if (seen !== undefined) expect(value.text).toBe(seen);
            textOf.set(`${index} ${value.revision}`, value.text);
          });
        }
        for (const reply of await writes) expect(reply.ok, JSON.stringify(reply)).toBe(true);
        const final = await store.readMany(keys);
        expect(final.map((outcome) => 'value' in outcome && outcome.value?.text)).toEqual(
          keys.map(() => String(times)),
        );
      },
    );

    processCase(
      'counts exactly while writers are frozen and resumed at random',
      4,
      async (store, workers) => {
        await store.create(KEY, '0');
        const times = 40;
        let running = true;
        const chaos = (async () => {
          while (running) {
            const victim = workers[Math.floor(Math.random() * workers.length)] as StoreProcess;
            victim.pause();
            await delay(Math.random() * 60);
            victim.resume();
            await delay(Math.random() * 10);
          }
        })();
        try {
          const replies = await Promise.all(
            workers.map((worker) => worker.call({ op: 'increment', key: KEY, times })),
          );
          for (const reply of replies) expect(reply.ok, JSON.stringify(reply)).toBe(true);
        } finally {
          running = false;
          await chaos;
          for (const worker of workers) worker.resume();
        }
        expect(await readNumber(store, KEY)).toBe(workers.length * times);
      },
    );

    processCase('admits exactly up to a cap across processes', 4, async (store, workers) => {
      const cap = 25;
      const replies = await Promise.all(
        workers.map((worker, w) =>
          worker.call({
            op: 'addEntries',
            collection: INBOX,
            ids: Array.from({ length: 15 }, (_, i) => `w${w}-m${i}`),
            maxCount: cap,
          }),
        ),
      );
      const outcomes = replies.flatMap((reply) => resultOf<string[]>(reply));
      expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(cap);
      expect(new Set(outcomes.filter((o) => o !== 'added'))).toEqual(
        new Set(['RECIPIENT_BACKPRESSURE']),
      );
      expect(await store.listEntries(INBOX, 'unread')).toHaveLength(cap);
    });

    processCase('moves each entry exactly once across processes', 4, async (store, workers) => {
      const ids = Array.from({ length: 40 }, (_, index) => `m${index}`);
      for (const id of ids) await store.addEntry(INBOX, id, id);
      const replies = await Promise.all(
        workers.map((worker) =>
          worker.call({
            op: 'moveEntries',
            collection: INBOX,
            ids,
            from: ['unread'],
            to: 'reserved',
          }),
        ),
      );
      const moved = replies.flatMap((reply) => resultOf<{ moved: string[] }>(reply).moved);
      expect(moved.sort()).toEqual([...ids].sort());
      expect(await store.listEntries(INBOX, 'reserved')).toHaveLength(ids.length);
    });

    processCase('claims each marker exactly once across processes', 4, async (store, workers) => {
      const keys = Array.from(
        { length: 30 },
        (_, index) => `runtime/run/inboxes/.sent/${index + 1}`,
      );
      const replies = await Promise.all(
        workers.map((worker) => worker.call({ op: 'claimMarkers', keys })),
      );
      const won = replies.flatMap((reply) => resultOf<string[]>(reply));
      expect(won.sort()).toEqual([...keys].sort());
      for (const key of keys) expect(await store.claimMarker(key)).toBe(false);
    });

    processCase(
      'keeps every line whole when processes append at once',
      4,
      async (store, workers) => {
        const lines = (w: number) =>
          Array.from({ length: 150 }, (_, i) => JSON.stringify({ w, i, pad: 'p'.repeat(i * 7) }));
        await Promise.all(
          workers.map((worker, w) =>
            worker.call({ op: 'append', key: 'runtime/run/events.jsonl', lines: lines(w) }),
          ),
        );
        const read = await store.readLog('runtime/run/events.jsonl');
        expect(read.skipped).toBe(0);
        expect([...read.lines].sort()).toEqual(workers.flatMap((_, w) => lines(w)).sort());
      },
    );

    processCase('serialises lock holders across processes', 4, async (store, workers) => {
      await Promise.all(
        workers.map((worker) =>
          worker.call({
            op: 'incrementLocked',
            key: KEY,
            lockKey: 'runtime/run/tasks/.lock',
            times: 25,
          }),
        ),
      );
      expect(await readNumber(store, KEY)).toBe(workers.length * 25);
    });

    processCase('a watch sees what another process wrote', 1, async (store, [writer]) => {
      const keys = new Set<string>();
      const stop = await store.watch('runtime/run', (changes) => {
        for (const change of changes) keys.add(change.key);
      });
      try {
        await (writer as StoreProcess).call({
          op: 'put',
          key: 'runtime/run/state.json',
          text: 'x',
        });
        const deadline = Date.now() + 15_000;
        while (!keys.has('runtime/run/state.json') && Date.now() < deadline) await delay(20);
        expect(keys.has('runtime/run/state.json')).toBe(true);
      } finally {
        await stop();
      }
    });
  });
}
